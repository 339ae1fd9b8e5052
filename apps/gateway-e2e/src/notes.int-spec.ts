import { randomUUID } from 'node:crypto';
import { type TestBusiness, contactSeed, createTestBusiness, storedCollection } from '@cmsg/testing';

describe('POST /{slug}/conversation/notes', () => {
  let business: TestBusiness;
  let conversationUuid: string;

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      conversationUuid = contactSeed(seed, { chat_username: 'NoteTaker' }).conversation!.uuid!;
      contactSeed(seed, { chat_username: 'shared' });
      contactSeed(seed, { chat_username: '@Shared' });
    });
  });

  it('stores the note on the internal timeline with author api_token and answers 201', async () => {
    const response = await business.api.post('/conversation/notes', { conversation: { username: '@notetaker' }, note: 'Customer prefers mornings' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ conversation: { uuid: conversationUuid }, note: { uuid: expect.any(String), created_at: expect.any(String) } });
    const stored = await storedCollection('timeline_events').findOne({ _id: response.body.note.uuid });
    expect(stored).toMatchObject({
      business_id: business.businessId,
      conversation_id: conversationUuid,
      kind: 'note',
      body: 'Customer prefers mornings',
      author: { type: 'api_token', uuid: business.tokenUuid },
    });
  });

  it('accepts 1 and 5000 characters and rejects 0 and 5001', async () => {
    for (const [note, status] of [['x', 201], ['x'.repeat(5000), 201], ['', 400], ['x'.repeat(5001), 400]] as const) {
      const response = await business.api.post('/conversation/notes', { conversation: { uuid: conversationUuid }, note });
      expect({ length: note.length, status: response.status }).toEqual({ length: note.length, status });
      if (status === 400) expect(response.body.code).toBe('INVALID_REQUEST');
    }
  });

  it('answers USERNAME_AMBIGUOUS, CONVERSATION_NOT_FOUND and INVALID_REQUEST per the reference rules', async () => {
    const ambiguous = await business.api.post('/conversation/notes', { conversation: { username: 'SHARED' }, note: 'n' });
    expect([ambiguous.status, ambiguous.body.code]).toEqual([409, 'USERNAME_AMBIGUOUS']);
    const missing = await business.api.post('/conversation/notes', { conversation: { uuid: randomUUID() }, note: 'n' });
    expect([missing.status, missing.body.code]).toEqual([404, 'CONVERSATION_NOT_FOUND']);
    const empty = await business.api.post('/conversation/notes', { conversation: {}, note: 'n' });
    expect([empty.status, empty.body.code]).toEqual([400, 'INVALID_REQUEST']);
    const noNote = await business.api.post('/conversation/notes', { conversation: { uuid: conversationUuid } });
    expect([noNote.status, noNote.body.code]).toEqual([400, 'INVALID_REQUEST']);
  });
});
