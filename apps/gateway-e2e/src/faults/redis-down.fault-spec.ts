import { randomUUID } from 'node:crypto';
import { type FaultStack, notesWithBody, reportFault, startFaultStack } from './fault-stack';

/**
 * Redis down (docs/decisions.md, "Rate limit" and "Idempotency keys"): the gateway keeps serving
 * with an in-memory limiter of the same budget, refuses requests that carry an Idempotency-Key
 * with 503 (it cannot keep the promise) without running them, and once Redis is back, keys work
 * again with no restart.
 */
describe('Redis down', () => {
  let fault: FaultStack;

  beforeAll(async () => {
    fault = await startFaultStack({ ownRedis: true, conversations: 2, tokens: 3 });
  }, 240_000);

  afterAll(async () => {
    await fault?.stop();
  });

  it('falls back to the in-memory rate limit, refuses idempotent requests with 503 and recovers', async () => {
    const [limited, keyed, recovering] = fault.tokens.map((token) => fault.business.api.withToken(token));
    const conversation = { uuid: fault.conversations[0] };
    await fault.redis!.kill();

    // The in-memory limiter: this token's 60 requests a minute, then 429.
    const statuses: number[] = [];
    for (let index = 0; index < 61; index += 1) statuses.push((await limited!.get('/channels')).status);
    expect(statuses.slice(0, 60).every((status) => status === 200)).toBe(true);
    expect(statuses[60]).toBe(429);

    // An Idempotency-Key cannot be honoured without Redis: 503, and the note is not added.
    const keyedBody = `keyed while redis is down ${randomUUID()}`;
    const refused = await keyed!.post('/conversation/notes', { conversation, note: keyedBody }, { 'idempotency-key': randomUUID() });
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe('SERVICE_UNAVAILABLE');
    const plainBody = `plain while redis is down ${randomUUID()}`;
    expect((await keyed!.post('/conversation/notes', { conversation, note: plainBody })).status).toBe(201);

    await fault.redis!.restart();
    const readyBy = Date.now() + 30_000;
    while ((await fetch(`${fault.description.gatewayUrls[0]}/readyz`)).status !== 200 && Date.now() < readyBy) await new Promise((resolve) => setTimeout(resolve, 250));
    const key = randomUUID();
    const afterBody = `keyed after redis is back ${randomUUID()}`;
    const first = await recovering!.post('/conversation/notes', { conversation, note: afterBody }, { 'idempotency-key': key });
    const replay = await recovering!.post('/conversation/notes', { conversation, note: afterBody }, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');

    const stored = { refused: await notesWithBody(keyedBody), plain: await notesWithBody(plainBody), keyed: await notesWithBody(afterBody) };
    reportFault('Redis down', { rate_limited_after: 60, idempotent_refused_503: 1, refused_but_stored: stored.refused, accepted_stored: stored.plain, replayed_stored: stored.keyed });
    expect(stored).toEqual({ refused: 0, plain: 1, keyed: 1 });
  });
});
