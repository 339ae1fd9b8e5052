import { randomUUID } from 'node:crypto';
import { type TestBusiness, contactSeed, createTestBusiness, minutesAgo, storedCollection } from '@cmsg/testing';
import { KafkaTopicProbe } from '@cmsg/testing/kafka';

describe('POST /{slug}/conversation/pending and /resolve (SPEC 3.1, 4.7)', () => {
  let business: TestBusiness;
  let probe: KafkaTopicProbe;
  const ai = randomUUID();
  const conversations = { human: randomUUID(), aiWithMedia: randomUUID(), aiClean: randomUUID() };

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      seed.ai_employees = [{ uuid: ai, name: 'Max', model: 'gpt-test', wallet_tokens: 100 }];
      const media = [{ uuid: randomUUID(), is_from_customer: true, content_type: 'audio', body: '', created_at: minutesAgo(5), media_transcription_pending: true }];
      contactSeed(seed, { conversation: { uuid: conversations.human, inbox_status: 'resolved' } });
      contactSeed(seed, { conversation: { uuid: conversations.aiWithMedia, ai_employee: ai, inbox_status: 'pending', messages: media } });
      contactSeed(seed, { conversation: { uuid: conversations.aiClean, ai_employee: ai, inbox_status: 'pending' } });
    });
    probe = KafkaTopicProbe.forStackTopic('conversation-events');
    await probe.start();
  });

  afterAll(() => probe.stop());

  const statusChanges = (conversationUuid: string) =>
    probe.matching((message) => message.key === conversationUuid && message.value.type === 'conversation.inbox_status_changed');

  it('marks pending once: the second call is 200 with no change and no broadcast; the AI stays assigned', async () => {
    const first = await business.api.post('/conversation/pending', { conversation: { uuid: conversations.human } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ conversation: { uuid: conversations.human }, inbox_status: 'pending' });
    const event = await probe.waitFor((message) => message.key === conversations.human);
    expect(event.value).toMatchObject({ type: 'conversation.inbox_status_changed', data: { from: 'resolved', to: 'pending', conversation_uuid: conversations.human } });
    expect(event.headers['x-request-id']).toBe(first.headers.get('x-request-id'));

    const again = await business.api.post('/conversation/pending', { conversation: { uuid: conversations.human } });
    expect(again.status).toBe(200);
    expect(again.body.inbox_status).toBe('pending');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(statusChanges(conversations.human)).toHaveLength(1);

    const stored = await storedCollection('conversations').findOne({ _id: conversations.aiClean });
    expect(stored?.ai_employee_id).toBe(ai);
  });

  it('refuses to resolve an AI-owned conversation whose inbound media awaits transcription', async () => {
    const response = await business.api.post('/conversation/resolve', { conversation: { uuid: conversations.aiWithMedia } });
    expect([response.status, response.body.code]).toEqual([422, 'TRANSCRIPTION_REQUIRED_TO_RESOLVE']);
    expect((await storedCollection('conversations').findOne({ _id: conversations.aiWithMedia }))?.inbox_status).toBe('pending');
  });

  // Human-attended conversations resolve even with media awaiting transcription:
  // libs/conversations-domain/src/inbox/set-inbox-status.usecase.spec.ts.

  it('resolves an AI-owned conversation without pending media, then pending again, broadcasting each change', async () => {
    expect((await business.api.post('/conversation/resolve', { conversation: { uuid: conversations.aiClean } })).body.inbox_status).toBe('resolved');
    expect((await business.api.post('/conversation/resolve', { conversation: { uuid: conversations.aiClean } })).status).toBe(200);
    expect((await business.api.post('/conversation/pending', { conversation: { uuid: conversations.aiClean } })).body.inbox_status).toBe('pending');
    await probe.waitFor((message) => message.key === conversations.aiClean && message.value.data.to === 'pending');
    expect(statusChanges(conversations.aiClean).map((message) => message.value.data.to)).toEqual(['resolved', 'pending']);
    // Published events leave the conversation's outbox.
    expect((await storedCollection('conversations').findOne({ _id: conversations.aiClean }))?.outbox).toEqual([]);
  });

  it('answers the reference errors', async () => {
    const missing = await business.api.post('/conversation/pending', { conversation: { uuid: randomUUID() } });
    expect([missing.status, missing.body.code]).toEqual([404, 'CONVERSATION_NOT_FOUND']);
    const invalid = await business.api.post('/conversation/resolve', { conversation: {} });
    expect([invalid.status, invalid.body.code]).toEqual([400, 'INVALID_REQUEST']);
  });
});
