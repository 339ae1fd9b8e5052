import { randomUUID } from 'node:crypto';
import { type TestBusiness, contactSeed, createTestBusiness, minutesAgo, uniquePhone, storedCollection } from '@cmsg/testing';
import { cloudApi, lastRequestSeq, messageRequests, phoneNumberIdOf, textRequestBody } from './messaging-fixtures';

describe('POST /{slug}/conversation/messages/quick-reply', () => {
  let business: TestBusiness;
  const phone = uniquePhone();
  const conversations = { open: randomUUID(), closed: randomUUID(), tester: randomUUID() };
  const replies = { greeting: randomUUID(), twinA: randomUUID(), twinB: randomUUID(), empty: randomUUID(), payment: randomUUID(), badMarker: randomUUID() };
  const payment = randomUUID();
  const inbound = (minutes: number) => [{ uuid: randomUUID(), is_from_customer: true, body: 'hola', created_at: minutesAgo(minutes) }];

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      seed.quick_replies = [
        { uuid: replies.greeting, name: 'Saludo inicial', actions: [{ text: '¡Hola! Gracias por escribir.' }, { text: '¿En qué te puedo ayudar?' }] },
        { uuid: replies.twinA, name: 'Horario', actions: [{ text: 'Abrimos de 9 a 18.' }] },
        { uuid: replies.twinB, name: 'horario', actions: [{ text: 'L-V 9 a 18.' }] },
        { uuid: replies.empty, name: 'Vacía', actions: [] },
        { uuid: replies.payment, name: 'Cobro', actions: [{ text: 'Tu total es [[payment.amount]] [[payment.currency]].' }, { text: 'Paga aquí: [[payment.link]]' }] },
        { uuid: replies.badMarker, name: 'Cobro roto', actions: [{ text: 'Fine first part' }, { text: 'Broken [[payment.discount]]' }] },
      ];
      contactSeed(seed, {
        phone,
        conversation: {
          uuid: conversations.open,
          messages: inbound(30),
          payments: [{ uuid: payment, amount: '450.00', currency: 'MXN', link: 'https://pay.example/p/450', reference: 'R-1' }],
        },
      });
      contactSeed(seed, { conversation: { uuid: conversations.closed, messages: inbound(25 * 60) } });
      contactSeed(seed, { is_tester: true, conversation: { uuid: conversations.tester, messages: inbound(5) } });
    });
  });

  const send = (conversation: string, quickReply: Record<string, string>) =>
    business.api.post('/conversation/messages/quick-reply', { conversation: { uuid: conversation }, quick_reply: quickReply });

  it('sends one text message per action, in order, and answers all of them', async () => {
    const since = await lastRequestSeq();
    const response = await send(conversations.open, { uuid: replies.greeting });
    expect(response.status).toBe(201);
    expect(response.body.messages).toHaveLength(2);
    expect(response.body.message).toEqual(response.body.messages[0]);
    for (const message of response.body.messages) expect(message).toEqual({ uuid: expect.any(String), status: 'sent', created_at: expect.any(String) });
    expect(Date.parse(response.body.messages[1].created_at)).toBeGreaterThan(Date.parse(response.body.messages[0].created_at));

    const requests = await messageRequests(business, since);
    expect(requests.map((request) => request.body)).toEqual([
      textRequestBody(phone, '¡Hola! Gracias por escribir.'),
      textRequestBody(phone, '¿En qué te puedo ayudar?'),
    ]);
    const stored = await storedCollection('messages')
      .find({ _id: { $in: response.body.messages.map((message: { uuid: string }) => message.uuid) } })
      .sort({ created_at: 1 })
      .toArray();
    expect(stored.map((message) => [message.body, message.status, message.provider_message_id])).toEqual(
      requests.map((request) => [(request.body as { text: { body: string } }).text.body, 'sent', request.provider_message_id]),
    );
    expect((await storedCollection('conversations').findOne({ _id: conversations.open }))!.last_message!.uuid).toBe(response.body.messages[1].uuid);
  });

  it('finds a quick reply by name, case-insensitively', async () => {
    const response = await send(conversations.open, { name: 'SALUDO INICIAL' });
    expect(response.status).toBe(201);
    expect(response.body.messages).toHaveLength(2);
  });

  it('answers 409 QUICK_REPLY_AMBIGUOUS for a name several share, and the uuid resolves it', async () => {
    const ambiguous = await send(conversations.open, { name: 'Horario' });
    expect([ambiguous.status, ambiguous.body.code]).toEqual([409, 'QUICK_REPLY_AMBIGUOUS']);
    expect((await send(conversations.open, { uuid: replies.twinB })).status).toBe(201);
  });

  it('answers 404 QUICK_REPLY_NOT_FOUND and 422 QUICK_REPLY_EMPTY', async () => {
    const byName = await send(conversations.open, { name: 'No existe' });
    expect([byName.status, byName.body.code]).toEqual([404, 'QUICK_REPLY_NOT_FOUND']);
    const byUuid = await send(conversations.open, { uuid: randomUUID() });
    expect([byUuid.status, byUuid.body.code]).toEqual([404, 'QUICK_REPLY_NOT_FOUND']);
    const empty = await send(conversations.open, { uuid: replies.empty });
    expect([empty.status, empty.body.code]).toEqual([422, 'QUICK_REPLY_EMPTY']);
  });

  it('needs the window open: 422 WINDOW_CLOSED', async () => {
    const response = await send(conversations.closed, { uuid: replies.greeting });
    expect([response.status, response.body.code]).toEqual([422, 'WINDOW_CLOSED']);
  });

  it("replaces payment markers in the actions' texts", async () => {
    const since = await lastRequestSeq();
    const response = await send(conversations.open, { uuid: replies.payment });
    expect(response.status).toBe(201);
    expect((await messageRequests(business, since)).map((request) => request.body)).toEqual([
      textRequestBody(phone, 'Tu total es 450.00 MXN.'),
      textRequestBody(phone, 'Paga aquí: https://pay.example/p/450'),
    ]);
  });

  it('sends nothing at all when one action holds an unknown marker', async () => {
    const since = await lastRequestSeq();
    const response = await send(conversations.open, { uuid: replies.badMarker });
    expect([response.status, response.body.code]).toEqual([422, 'PAYMENT_MARKER_UNKNOWN']);
    expect(await messageRequests(business, since)).toEqual([]);
  });

  it('stops at the first part the provider refuses; the parts before it stay sent', async () => {
    const api = cloudApi();
    // The first send of this business passes, the second fails.
    const [passId] = await api.addRules({ match: { phone_number_id: phoneNumberIdOf(business) }, times: 1, delay_ms: 0 });
    const [failId] = await api.addRules({ match: { phone_number_id: phoneNumberIdOf(business) }, status: 503, times: 1 });
    try {
      const response = await send(conversations.open, { uuid: replies.greeting });
      expect([response.status, response.body.code]).toEqual([502, 'SEND_FAILED']);
    } finally {
      await api.removeRule(passId!).catch(() => undefined);
      await api.removeRule(failId!).catch(() => undefined);
    }
    const parts = await storedCollection('messages')
      .find({ conversation_id: conversations.open, operation_parts: 2, body: { $in: ['¡Hola! Gracias por escribir.', '¿En qué te puedo ayudar?'] } })
      .sort({ created_at: -1 })
      .limit(2)
      .toArray();
    expect(parts.map((part) => [part.operation_part, part.status])).toEqual([
      [1, 'failed'],
      [0, 'sent'],
    ]);
  });

  it('simulates every part for a tester conversation', async () => {
    const since = await lastRequestSeq();
    const response = await send(conversations.tester, { uuid: replies.greeting });
    expect(response.status).toBe(201);
    expect(response.body.messages.map((message: { status: string }) => message.status)).toEqual(['simulated', 'simulated']);
    expect(await messageRequests(business, since)).toEqual([]);
  });
});
