import { randomUUID } from 'node:crypto';
import { type TestBusiness, contactSeed, createTestBusiness, storedCollection } from '@cmsg/testing';

describe('Idempotency-Key (CONTRACT 1)', () => {
  let business: TestBusiness;
  let conversationUuid: string;

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      conversationUuid = contactSeed(seed).conversation!.uuid!;
    });
  });

  it('replays the first response for the same key and body, and does nothing again', async () => {
    const key = randomUUID();
    const body = { conversation: { uuid: conversationUuid }, note: 'only once' };
    const first = await business.api.post('/conversation/notes', body, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    const replay = await business.api.post('/conversation/notes', body, { 'idempotency-key': key });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await storedCollection('timeline_events').countDocuments({ conversation_id: conversationUuid, body: 'only once' })).toBe(1);
  });

  it('answers 409 IDEMPOTENCY_KEY_REUSED for the same key with another body', async () => {
    const key = randomUUID();
    expect((await business.api.post('/conversation/notes', { conversation: { uuid: conversationUuid }, note: 'a' }, { 'idempotency-key': key })).status).toBe(201);
    const reused = await business.api.post('/conversation/notes', { conversation: { uuid: conversationUuid }, note: 'b' }, { 'idempotency-key': key });
    expect([reused.status, reused.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
  });

  // A key longer than 255 characters is refused: apps/gateway/src/app.idempotency.spec.ts.
});
