import { randomUUID } from 'node:crypto';
import { type FaultStack, notesWithBody, reportFault, startFaultStack } from './fault-stack';

/**
 * MongoDB stops answering for 10 s (its process stopped with SIGSTOP, connections left open, as a
 * stalled primary does) while notes keep arriving: each request succeeds or fails with 503/504
 * SERVICE_UNAVAILABLE, none half-done (an answered note is stored once, a failed one at most once),
 * /readyz names MongoDB while it is away, and the services recover without a restart.
 */
describe('MongoDB unavailable for 10 s under load', () => {
  let fault: FaultStack;

  beforeAll(async () => {
    fault = await startFaultStack({ ownMongo: true, conversations: 4, tokens: 4 });
  }, 240_000);

  afterAll(async () => {
    await fault?.stop();
  });

  it('answers each request with success or 503/504, stores nothing twice and recovers by itself', async () => {
    const gateway = fault.description.gatewayUrls[0]!;
    const results: { body: string; status: number; code?: string }[] = [];
    const readiness: { status: number; body: string }[] = [];
    const sendNote = async (index: number) => {
      const body = `fault note ${index} ${randomUUID()}`;
      const client = fault.business.api.withToken(fault.tokens[index % fault.tokens.length]);
      const response = await client.post('/conversation/notes', { conversation: { uuid: fault.conversations[index % fault.conversations.length] }, note: body });
      results.push({ body, status: response.status, code: response.body?.code });
    };

    const inFlight: Promise<void>[] = [];
    const started = Date.now();
    let index = 0;
    // 16 s of notes, one every 400 ms; MongoDB stopped from 3 s to 13 s.
    const sender = (async () => {
      while (Date.now() - started < 16_000) {
        inFlight.push(sendNote(index++));
        await new Promise((resolve) => setTimeout(resolve, 400));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    fault.mongo!.pause();
    const pausedAt = Date.now();
    while (Date.now() - pausedAt < 10_000) {
      const response = await fetch(`${gateway}/readyz`, { signal: AbortSignal.timeout(8_000) }).catch(() => undefined);
      if (response) readiness.push({ status: response.status, body: await response.text() });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    fault.mongo!.resume();
    await sender;
    await Promise.all(inFlight);

    // Recovered without a restart: a new request succeeds within 30 s.
    const recoveredBy = Date.now() + 30_000;
    let recovered = false;
    while (!recovered && Date.now() < recoveredBy) {
      const response = await fault.business.api.post('/conversation/status', { conversation: { uuid: fault.conversations[0] } });
      recovered = response.status === 200;
      if (!recovered) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(recovered).toBe(true);

    const unexpected = results.filter((result) => ![201, 503, 504].includes(result.status) || (result.status !== 201 && result.code !== 'SERVICE_UNAVAILABLE'));
    expect(unexpected).toEqual([]);
    let lost = 0;
    let twice = 0;
    for (const result of results) {
      const stored = await notesWithBody(result.body);
      if (result.status === 201 && stored === 0) lost += 1;
      if (stored > 1) twice += 1;
    }
    const accepted = results.filter((result) => result.status === 201).length;
    reportFault('MongoDB paused 10 s', { requests: results.length, accepted, refused_503_504: results.length - accepted, lost, twice });
    expect({ lost, twice }).toEqual({ lost: 0, twice: 0 });
    expect(readiness.some((answer) => answer.status === 503 && answer.body.includes('mongodb'))).toBe(true);
  });
});
