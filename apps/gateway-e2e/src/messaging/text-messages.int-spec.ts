import { randomUUID } from 'node:crypto';
import { type TestBusiness, contactSeed, createTestBusiness, minutesAgo, uniquePhone, storedCollection } from '@cmsg/testing';
import { cloudApi, lastRequestSeq, messageRequests, phoneNumberIdOf, storedMessage, textRequestBody } from './messaging-fixtures';

describe('POST /{slug}/conversation/messages/text', () => {
  let business: TestBusiness;
  const phones = { open: uniquePhone(), closed: uniquePhone(), failing: uniquePhone(), silent: uniquePhone() };
  const conversations = {
    open: randomUUID(),
    closed: randomUUID(),
    silent: randomUUID(),
    failing: randomUUID(),
    bsuid: randomUUID(),
    tester: randomUUID(),
    testerClock: randomUUID(),
    unconfigured: randomUUID(),
  };
  const chatUserId = `MX.${randomUUID()}`;
  const inbound = (minutes: number) => [{ uuid: randomUUID(), is_from_customer: true, body: 'hola', created_at: minutesAgo(minutes) }];

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      seed.channels!.push({ public_key: `${seed.slug}-no-token`, name: 'Not connected', phone_number_id: `pn-none-${seed.slug}` });
      contactSeed(seed, { phone: phones.open, conversation: { uuid: conversations.open, messages: [...inbound(90), ...inbound(60)] } });
      contactSeed(seed, { phone: phones.closed, conversation: { uuid: conversations.closed, messages: inbound(24 * 60 + 1) } });
      contactSeed(seed, { phone: phones.silent, conversation: { uuid: conversations.silent, messages: [] } });
      contactSeed(seed, { phone: phones.failing, conversation: { uuid: conversations.failing, messages: inbound(5) } });
      contactSeed(seed, { phone: null, chat_user_id: chatUserId, conversation: { uuid: conversations.bsuid, messages: inbound(5) } });
      contactSeed(seed, { is_tester: true, conversation: { uuid: conversations.tester, messages: inbound(5) } });
      contactSeed(seed, { is_tester: true, conversation: { uuid: conversations.testerClock, messages: inbound(60) } });
      contactSeed(seed, { channel: `${seed.slug}-no-token`, conversation: { uuid: conversations.unconfigured, messages: inbound(5) } });
    });
  });

  const send = (conversation: string | Record<string, string>, body: Record<string, unknown>) =>
    business.api.post('/conversation/messages/text', { conversation: typeof conversation === 'string' ? { uuid: conversation } : conversation, ...body });

  it('sends the text through the Cloud API, stores it and updates the conversation', async () => {
    const since = await lastRequestSeq();
    const response = await send({ phone: phones.open }, { text: 'Hola, ¿en qué te ayudo?' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ message: { uuid: expect.any(String), status: 'sent', created_at: expect.any(String) } });

    const [request, ...more] = await messageRequests(business, since);
    expect(more).toEqual([]);
    expect(request).toMatchObject({
      method: 'POST',
      path: `/v21.0/${phoneNumberIdOf(business)}/messages`,
      authorization: `Bearer ${business.seed.channels![0]!.access_token}`,
      status: 200,
    });
    expect(request!.body).toEqual(textRequestBody(phones.open, 'Hola, ¿en qué te ayudo?'));

    const stored = await storedMessage(response.body.message.uuid);
    expect(stored).toMatchObject({
      conversation_id: conversations.open,
      is_from_customer: false,
      body: 'Hola, ¿en qué te ayudo?',
      content_type: 'text',
      status: 'sent',
      is_simulated: false,
      provider_message_id: request!.provider_message_id,
      author: { type: 'api_token', uuid: business.tokenUuid },
    });
    expect(stored!.created_at.toISOString()).toBe(response.body.message.created_at);

    const conversation = await storedCollection('conversations').findOne({ _id: conversations.open });
    expect(conversation!.last_message).toMatchObject({ uuid: response.body.message.uuid, is_from_customer: false, body: 'Hola, ¿en qué te ayudo?' });
    expect(conversation!.unread_count).toBe(0);
    expect(conversation!.sort_at.toISOString()).toBe(response.body.message.created_at);
    // Only the customer opens the window.
    expect(Date.now() - conversation!.last_inbound_at!.getTime()).toBeGreaterThan(59 * 60_000);

    const status = await business.api.post('/conversation/status', { conversation: { uuid: conversations.open } });
    expect(status.body.last_message).toEqual({ uuid: response.body.message.uuid, is_from_customer: false, created_at: response.body.message.created_at });
    expect(status.body.window.status).toBe('open');
  });

  it('refuses free-form text with the window closed (24 h after the last inbound message, or never opened): 422 WINDOW_CLOSED', async () => {
    const since = await lastRequestSeq();
    for (const conversation of [conversations.closed, conversations.silent]) {
      const response = await send(conversation, { text: 'hola' });
      expect([response.status, response.body.code]).toEqual([422, 'WINDOW_CLOSED']);
    }
    expect(await messageRequests(business, since)).toEqual([]);
    expect(await storedCollection('messages').countDocuments({ conversation_id: conversations.closed, is_from_customer: false })).toBe(0);
  });

  it('answers 502 SEND_FAILED when the provider fails, and keeps the message as failed', async () => {
    const api = cloudApi();
    const [ruleId] = await api.addRules({ match: { phone_number_id: phoneNumberIdOf(business), to: phones.failing }, status: 500, times: 1 });
    try {
      const response = await send(conversations.failing, { text: 'this one fails' });
      expect([response.status, response.body.code]).toEqual([502, 'SEND_FAILED']);
      expect(response.body.message).toContain('HTTP 500');
    } finally {
      await api.removeRule(ruleId!).catch(() => undefined);
    }
    const failed = await storedCollection('messages').findOne({ conversation_id: conversations.failing, is_from_customer: false });
    expect(failed).toMatchObject({ body: 'this one fails', status: 'failed', error: { code: 'SEND_FAILED' }, provider_message_id: null });
    // A failed message is not the conversation's last message.
    expect((await storedCollection('conversations').findOne({ _id: conversations.failing }))!.last_message!.is_from_customer).toBe(true);

    const retried = await send(conversations.failing, { text: 'this one goes' });
    expect(retried.status).toBe(201);
  });

  it('answers 409 BSUID_SEND_DISABLED for a contact without a phone, with nothing sent or kept', async () => {
    const since = await lastRequestSeq();
    const response = await send({ chat_user_id: chatUserId }, { text: 'hola' });
    expect([response.status, response.body.code]).toEqual([409, 'BSUID_SEND_DISABLED']);
    expect(await messageRequests(business, since)).toEqual([]);
    expect(await storedCollection('messages').countDocuments({ conversation_id: conversations.bsuid, is_from_customer: false })).toBe(0);
  });

  it('answers 422 CHANNEL_NOT_CONFIGURED when the channel has no Cloud API access token', async () => {
    const response = await send(conversations.unconfigured, { text: 'hola' });
    expect([response.status, response.body.code]).toEqual([422, 'CHANNEL_NOT_CONFIGURED']);
  });

  it('simulates sends to tester conversations: recorded as simulated, never sent to the provider', async () => {
    const since = await lastRequestSeq();
    const response = await send(conversations.tester, { text: 'simulated hello' });
    expect(response.status).toBe(201);
    expect(response.body.message.status).toBe('simulated');
    expect(await messageRequests(business, since)).toEqual([]);
    expect(await storedMessage(response.body.message.uuid)).toMatchObject({ status: 'simulated', is_simulated: true, body: 'simulated hello', provider_message_id: null });
    expect((await storedCollection('conversations').findOne({ _id: conversations.tester }))!.last_message!.uuid).toBe(response.body.message.uuid);
  });

  it("checks a tester conversation's window on the business's virtual clock", async () => {
    expect((await send(conversations.testerClock, { text: 'before' })).status).toBe(201);
    await storedCollection('businesses').updateOne({ _id: business.businessId }, { $set: { tester_clock_offset_ms: 23 * 3_600_000 + 1_000 } });
    try {
      const response = await send(conversations.testerClock, { text: 'after' });
      expect([response.status, response.body.code]).toEqual([422, 'WINDOW_CLOSED']);
      // Real conversations keep the real clock.
      expect((await send(conversations.open, { text: 'still open' })).status).toBe(201);
    } finally {
      await storedCollection('businesses').updateOne({ _id: business.businessId }, { $set: { tester_clock_offset_ms: 0 } });
    }
  });

  describe('with file_uuid', () => {
    it('refuses files to tester conversations first: 422 TESTER_CONVERSATION_NOT_WRITABLE', async () => {
      const response = await send(conversations.tester, { text: 'caption', file_uuid: randomUUID(), transcription: 'a receipt' });
      expect([response.status, response.body.code]).toEqual([422, 'TESTER_CONVERSATION_NOT_WRITABLE']);
    });

    it('needs the window open: 422 WINDOW_CLOSED', async () => {
      const response = await send(conversations.closed, { text: 'caption', file_uuid: randomUUID() });
      expect([response.status, response.body.code]).toEqual([422, 'WINDOW_CLOSED']);
    });

    it('answers 404 FILE_NOT_FOUND for a file that is not a confirmed upload', async () => {
      const since = await lastRequestSeq();
      const response = await send(conversations.open, { text: 'caption', file_uuid: randomUUID() });
      expect([response.status, response.body.code]).toEqual([404, 'FILE_NOT_FOUND']);
      expect(await messageRequests(business, since)).toEqual([]);
    });
  });

  it('validates the body: text 1..4096, transcription only with a file', async () => {
    for (const body of [{ text: '' }, { text: 'x'.repeat(4097) }, {}, { text: 'hi', transcription: 'no file' }, { text: 'hi', file_uuid: 'not-a-uuid' }]) {
      const response = await send(conversations.open, body);
      expect({ body, status: response.status, code: response.body.code }).toEqual({ body, status: 400, code: 'INVALID_REQUEST' });
    }
    expect((await send(conversations.open, { text: 'x'.repeat(4096) })).status).toBe(201);
  });

  it('answers the conversation reference errors', async () => {
    const missing = await send(randomUUID(), { text: 'hi' });
    expect([missing.status, missing.body.code]).toEqual([404, 'CONVERSATION_NOT_FOUND']);
  });

  it('sends again for every request without Idempotency-Key, once per Idempotency-Key', async () => {
    const since = await lastRequestSeq();
    const key = randomUUID();
    const first = await send(conversations.open, { text: 'dedupe me' });
    const second = await send(conversations.open, { text: 'dedupe me' });
    expect(first.body.message.uuid).not.toBe(second.body.message.uuid);
    const keyed = await business.api.post('/conversation/messages/text', { conversation: { uuid: conversations.open }, text: 'keyed' }, { 'Idempotency-Key': key });
    const replay = await business.api.post('/conversation/messages/text', { conversation: { uuid: conversations.open }, text: 'keyed' }, { 'Idempotency-Key': key });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(keyed.body);
    const bodies = (await messageRequests(business, since)).map((record) => (record.body as { text: { body: string } }).text.body);
    expect(bodies).toEqual(['dedupe me', 'dedupe me', 'keyed']);
  });
});
