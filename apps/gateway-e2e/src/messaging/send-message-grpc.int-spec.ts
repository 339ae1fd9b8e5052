import { randomUUID } from 'node:crypto';
import { CatalogError } from '@cmsg/errors';
import type { SendMessageRequest } from '@cmsg/proto';
import { type TestBusiness, contactSeed, createTestBusiness, minutesAgo, uniquePhone, storedCollection } from '@cmsg/testing';
import { createLogger } from '@cmsg/platform';
import { closeRedisClient, createRedisClient } from '@cmsg/platform/redis';
import { cloudApi, conversationActionsClient, lastRequestSeq, messageRequests, phoneNumberIdOf, textRequestBody } from './messaging-fixtures';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:16379';

/** SendMessage as the actions-runner calls it: operation_id `<group uuid>:<index>`, exactly once. */
describe('ConversationActionsService.SendMessage (gRPC)', () => {
  let business: TestBusiness;
  const client = conversationActionsClient();
  const { rpc } = client;
  const phone = uniquePhone();
  const conversations = { open: randomUUID() };
  const ids = { greeting: randomUUID(), ai: randomUUID() };

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      seed.quick_replies = [{ uuid: ids.greeting, name: 'Saludo', actions: [{ text: 'Hola' }, { text: '¿Cómo estás?' }] }];
      contactSeed(seed, { phone, conversation: { uuid: conversations.open, messages: [{ uuid: randomUUID(), is_from_customer: true, body: 'hola', created_at: minutesAgo(10) }] } });
    });
  });

  afterAll(() => client.close());

  const request = (fields: Partial<SendMessageRequest>): SendMessageRequest => ({
    caller: { business_id: business.businessId, token_uuid: business.tokenUuid },
    conversation: { uuid: conversations.open },
    operation_id: `${randomUUID()}:0`,
    author: { type: 'system' },
    ...fields,
  });

  async function rejection(promise: Promise<unknown>): Promise<CatalogError> {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(CatalogError);
    return error as CatalogError;
  }

  it('sends once for a repeated operation_id and answers the stored result', async () => {
    const since = await lastRequestSeq();
    const send = request({ text: { body: 'exactly once' }, author: { type: 'ai_employee', uuid: ids.ai } });
    const first = await rpc.sendMessage(send);
    const again = await rpc.sendMessage(send);
    const viaOtherContent = await rpc.sendMessage({ ...send, text: { body: 'a different text' } });
    expect(first.message).toEqual({ uuid: expect.any(String), status: 'sent', created_at: expect.any(String) });
    expect(again).toEqual(first);
    expect(viaOtherContent).toEqual(first);
    expect((await messageRequests(business, since)).map((record) => record.body)).toEqual([textRequestBody(phone, 'exactly once')]);
    expect(await storedCollection('messages').findOne({ _id: first.message!.uuid })).toMatchObject({ author: { type: 'ai_employee', uuid: ids.ai }, operation_id: send.operation_id });
  });

  // A repeat answers the stored result even once the send would no longer be allowed:
  // libs/conversations-domain/src/messaging/send-message.usecase.spec.ts.

  it('sends every part of a quick reply once, however often the operation repeats', async () => {
    const since = await lastRequestSeq();
    const send = request({ quick_reply: { name: 'saludo' } });
    const first = await rpc.sendMessage(send);
    expect(first.messages).toHaveLength(2);
    expect(await rpc.sendMessage(send)).toEqual(first);
    expect(await messageRequests(business, since)).toHaveLength(2);
  });

  it('after a crash between two parts, a repeat sends only the missing part', async () => {
    const send = request({ quick_reply: { uuid: ids.greeting } });
    const first = await rpc.sendMessage(send);
    // The second part was never claimed: the process died after the first one.
    await storedCollection('messages').deleteOne({ _id: first.messages[1]!.uuid });
    const since = await lastRequestSeq();
    const repeated = await rpc.sendMessage(send);
    expect(repeated.messages.map((message) => message.uuid)).toEqual(first.messages.map((message) => message.uuid));
    expect((await messageRequests(business, since)).map((record) => record.body)).toEqual([textRequestBody(phone, '¿Cómo estás?')]);
  });

  it('a concurrent repeat waits for the attempt in flight instead of sending again', async () => {
    const api = cloudApi();
    const [slow] = await api.addRules({ match: { phone_number_id: phoneNumberIdOf(business) }, delay_ms: 1500, times: 1 });
    const since = await lastRequestSeq();
    try {
      const send = request({ text: { body: 'slow provider' } });
      const later = new Promise((resolve) => setTimeout(resolve, 300)).then(() => rpc.sendMessage(send));
      // Two at once race for the insert; the third finds the attempt in flight.
      const [first, ...others] = await Promise.all([rpc.sendMessage(send), rpc.sendMessage(send), later]);
      expect(others).toEqual([first, first]);
      expect(first.message!.status).toBe('sent');
    } finally {
      await api.removeRule(slow!).catch(() => undefined);
    }
    expect(await messageRequests(business, since)).toHaveLength(1);
  });

  // A provider failure is repeated from the record without another call: send-message.usecase.spec.ts and
  // libs/conversations-domain/src/messaging/outbound-message-store.int-spec.ts.

  it('never re-sends a message a crash left in `sending`: it is settled as failed, SEND_FAILED', async () => {
    const send = request({ text: { body: 'crashed mid-call' } });
    const first = await rpc.sendMessage(send);
    // What a crash between the provider call and recording its answer leaves behind.
    await storedCollection('messages').updateOne(
      { _id: first.message!.uuid },
      { $set: { status: 'sending', provider_message_id: null, sending_started_at: new Date(Date.now() - 10 * 60_000) } },
    );
    const since = await lastRequestSeq();
    const error = await rejection(rpc.sendMessage(send));
    expect(error.code).toBe('SEND_FAILED');
    expect(error.message).toContain('outcome is unknown');
    expect(await messageRequests(business, since)).toEqual([]);
    expect(await storedCollection('messages').findOne({ _id: first.message!.uuid })).toMatchObject({ status: 'failed', error: { code: 'SEND_FAILED' } });
  });

  it('sends again a message a crash left `sending` before its provider call (its call fence still up), once', async () => {
    const send = request({ text: { body: 'cut off before its call' } });
    const first = await rpc.sendMessage(send);
    const messageId = first.message!.uuid;
    // What a kill of a process waiting for its slot leaves: the claim, and the fence it raised (its id on the claim).
    const fenceId = randomUUID();
    await storedCollection('messages').updateOne(
      { _id: messageId },
      { $set: { status: 'sending', provider_message_id: null, sending_started_at: new Date(), sending_process: `stopped-${randomUUID()}`, sending_fence: fenceId } },
    );
    const channelId = String((await storedCollection('conversations').findOne({ _id: conversations.open }))!['channel_id']);
    const fenceKey = `send:{${channelId}}:uncalled:${fenceId}`;
    const redis = createRedisClient(REDIS_URL, createLogger('test', 'silent'));
    await redis.connect();
    try {
      await redis.set(fenceKey, '1', { PX: 60_000 });
      const since = await lastRequestSeq();
      const repeated = await rpc.sendMessage(send);
      expect(repeated.message).toEqual({ uuid: messageId, status: 'sent', created_at: expect.any(String) });
      expect((await messageRequests(business, since)).map((record) => record.body)).toEqual([textRequestBody(phone, 'cut off before its call')]);
      expect(await redis.exists(fenceKey)).toBe(0);
      // Sent now: a later repeat answers it without calling.
      expect(await rpc.sendMessage(send)).toEqual(repeated);
      expect(await messageRequests(business, since)).toHaveLength(1);
    } finally {
      await closeRedisClient(redis);
    }
  });

  // quick_reply_or_template (deprecated), its quick reply in the window and its template outside:
  // send-message.usecase.spec.ts; from the runner, action-group-action-types.int-spec.ts.

  it('refuses malformed requests with INVALID_REQUEST', async () => {
    expect((await rejection(rpc.sendMessage(request({ operation_id: '', text: { body: 'x' } })))).code).toBe('INVALID_REQUEST');
    expect((await rejection(rpc.sendMessage(request({})))).code).toBe('INVALID_REQUEST');
    expect((await rejection(rpc.sendMessage(request({ text: { body: 'x' }, quick_reply: { uuid: ids.greeting } })))).code).toBe('INVALID_REQUEST');
    expect((await rejection(rpc.sendMessage(request({ text: { body: 'x' }, author: { type: 'robot' } })))).code).toBe('INVALID_REQUEST');
  });
});
