import { randomUUID } from 'node:crypto';
import { type TestBusiness, contactSeed, createTestBusiness, fakeWamid, inboundTextWebhook, minutesAgo, statusWebhook, storedCollection, uniquePhone } from '@cmsg/testing';
import { channelOf, cloudApi, deliverWebhook, eventually, inboundMessageByProviderId } from '../inbound/inbound-fixtures';
import { type StoredEvent, eventRowsOf, eventsOfConversation, outboxOf, settledEvents, strictlyIncreasing, tokenAuthor, typesOf } from './event-fixtures';

jest.setTimeout(240_000);

const digits = (phone: string) => phone.replace(/\D/g, '');

/**
 * Message events (CONTRACT 9.2): their data is the message's timeline item (CONTRACT 9.1), from
 * every path that makes the change: inbound webhooks and tester inbound (message.received), sends
 * accepted by the Cloud API, AI replies and simulated tester sends (message.sent), delivery statuses
 * and failed sends (message.status_updated); new senders and tester contacts (conversation.created).
 */
describe('message events', () => {
  let business: TestBusiness;
  const ai = randomUUID();
  const MODEL = `gpt-events-${randomUUID().slice(0, 8)}`;
  const phones = { known: uniquePhone(), aiOwned: uniquePhone(), failing: uniquePhone() };
  const conversations = { known: randomUUID(), aiOwned: randomUUID(), failing: randomUUID() };
  const contacts = { known: randomUUID(), aiOwned: randomUUID() };

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      seed.ai_employees = [{ uuid: ai, name: 'Rosa', model: MODEL, instructions: 'You are Rosa.', wallet_tokens: 100_000 }];
      const recent = [{ uuid: randomUUID(), is_from_customer: true, body: 'Hello', content_type: 'text', created_at: minutesAgo(5) }];
      contactSeed(seed, { uuid: contacts.known, first_name: 'Ana', last_name: 'Known', phone: phones.known, conversation: { uuid: conversations.known, messages: recent } });
      contactSeed(seed, { uuid: contacts.aiOwned, first_name: 'Beto', last_name: 'Bot', phone: phones.aiOwned, conversation: { uuid: conversations.aiOwned, ai_employee: ai, inbox_status: 'resolved' } });
      contactSeed(seed, { phone: phones.failing, conversation: { uuid: conversations.failing, messages: recent.map((message) => ({ ...message, uuid: randomUUID() })) } });
    });
    await cloudApi().addRules({ match: { to: digits(phones.failing) }, status: 500, error: { message: 'Service temporarily unavailable', code: 2 } });
  });

  it('a new sender: conversation.created, contact.created, then message.received with the message as a timeline item', async () => {
    const userId = `MX.${randomUUID()}`;
    const wamid = fakeWamid();
    const payload = inboundTextWebhook({ ...channelOf(business), from_user_id: userId, name: 'Nueva Cliente', id: wamid, text: 'Hola, ¿tienen mesa?' });
    expect((await deliverWebhook(payload)).status).toBe(200);
    // The provider repeats webhooks: the same message makes no second event.
    expect((await deliverWebhook(payload)).status).toBe(200);
    const message = await eventually(() => inboundMessageByProviderId(business.businessId, wamid), (found) => found?.ingest?.conversation_applied === true);
    const conversationId = message!.conversation_id as string;
    const contact = await storedCollection('contacts').findOne({ business_id: business.businessId, chat_user_id: userId });

    const events = await settledEvents(conversationId, 3);
    expect(typesOf(events)).toEqual(['conversation.created', 'contact.created', 'message.received']);
    expect(strictlyIncreasing(events)).toBe(true);
    expect(events[0]!.data).toEqual({
      contact: { uuid: contact!._id, name: 'Nueva Cliente', profile_name: 'Nueva Cliente', phone: null, chat_user_id: userId },
      channel: { public_key: business.channelKey },
      is_tester: false,
    });
    // The contact made by the message: its uuid only (CONTRACT 10.1), as for one the API creates.
    expect(events[1]!.data).toEqual({ contact: { uuid: contact!._id } });
    expect(events[2]!.data).toEqual({
      uuid: message!._id,
      kind: 'message',
      created_at: (message!.created_at as Date).toISOString(),
      author: { type: 'customer', uuid: contact!._id, name: 'Nueva Cliente' },
      direction: 'inbound',
      content_type: 'text',
      body: 'Hola, ¿tienen mesa?',
      media: null,
      status: 'received',
      error: null,
      pricing: null,
    });
    expect(await outboxOf('conversations', conversationId)).toEqual([]);
    expect(await outboxOf('contacts', contact!._id as string)).toEqual([]);
    // Messages are timeline items themselves: no event rows.
    expect(await eventRowsOf(conversationId)).toEqual([]);
  });

  it('a send accepted by the Cloud API, then its delivery statuses once each, in order', async () => {
    const sent = await business.api.post('/conversation/messages/text', { conversation: { uuid: conversations.known }, text: 'Sí, a las 8' });
    expect(sent.status).toBe(201);
    const messageUuid = sent.body.message.uuid as string;
    const stored = await storedCollection('messages').findOne({ _id: messageUuid });
    const wamid = stored!['provider_message_id'] as string;
    for (const status of ['sent', 'delivered', 'delivered', 'read', 'delivered'] as const) {
      expect((await deliverWebhook(statusWebhook({ ...channelOf(business), message_id: wamid, status, recipient_id: digits(phones.known) }))).status).toBe(200);
    }
    const events = await settledEvents(conversations.known, 3, (event) => event.data['uuid'] === messageUuid);
    // `sent` came after the send was settled as sent; the repeats and the late `delivered` change nothing.
    expect(events.map((event) => [event.type, event.data['status']])).toEqual([
      ['message.sent', 'sent'],
      ['message.status_updated', 'delivered'],
      ['message.status_updated', 'read'],
    ]);
    expect(strictlyIncreasing(events)).toBe(true);
    expect(events[0]!.data).toEqual({
      uuid: messageUuid,
      kind: 'message',
      created_at: sent.body.message.created_at,
      author: tokenAuthor(business.tokenUuid),
      direction: 'outbound',
      content_type: 'text',
      body: 'Sí, a las 8',
      media: null,
      status: 'sent',
      error: null,
      pricing: null,
    });
    expect(await outboxOf('messages', messageUuid)).toEqual([]);
    // The data of a message event is the message's timeline item, as GET /conversation/timeline shows it.
    const timeline = await business.api.get('/conversation/timeline', { conversation_uuid: conversations.known, kinds: 'message' });
    expect(timeline.status).toBe(200);
    expect(timeline.body.items.find((item: { uuid: string }) => item.uuid === messageUuid)).toEqual(events.at(-1)!.data);
  });

  it('a send the Cloud API refuses: message.status_updated failed with its error', async () => {
    const refused = await business.api.post('/conversation/messages/text', { conversation: { uuid: conversations.failing }, text: 'Will not arrive' });
    expect([refused.status, refused.body.code]).toEqual([502, 'SEND_FAILED']);
    const [failed] = await settledEvents(conversations.failing, 1);
    expect(failed).toMatchObject({ type: 'message.status_updated', data: { direction: 'outbound', body: 'Will not arrive', status: 'failed', error: { code: 'SEND_FAILED' } } });
    expect(await eventsOfConversation(conversations.failing)).toHaveLength(1);
  });

  it('an inbound message on an AI-owned conversation: message.received, then the AI reply as message.sent by the AI employee', async () => {
    const wamid = fakeWamid();
    await deliverWebhook(inboundTextWebhook({ ...channelOf(business), from: digits(phones.aiOwned), name: 'Beto WA', id: wamid, text: 'Quiero reservar' }));
    // The reply runs as a one-action group (run_ai), which finishes too.
    const events = await settledEvents(conversations.aiOwned, 3);
    expect(typesOf(events)).toEqual(['message.received', 'message.sent', 'action_group.finished']);
    expect(events[0]!.data).toMatchObject({ direction: 'inbound', body: 'Quiero reservar', author: { type: 'customer', uuid: contacts.aiOwned, name: 'Beto Bot' } });
    expect(events[1]!.data).toMatchObject({ direction: 'outbound', status: 'sent', author: { type: 'ai_employee', uuid: ai, name: 'Rosa' }, body: `AI(${MODEL}): re: Quiero reservar` });
    expect(strictlyIncreasing(events)).toBe(true);
  });

  it('tester conversations: the contact creation, the simulated customer and the simulated send', async () => {
    const created = await business.api.post('/tester/contacts', { first_name: 'Tess' });
    expect(created.status).toBe(201);
    const conversationId = created.body.conversation.uuid as string;
    const contactId = created.body.contact.uuid as string;
    const inbound = await business.api.post('/tester/inbound', { conversation: { uuid: conversationId }, text: 'Hola desde pruebas' });
    expect(inbound.status).toBe(201);
    const reply = await business.api.post('/conversation/messages/text', { conversation: { uuid: conversationId }, text: 'Respuesta simulada' });
    expect(reply.status).toBe(201);

    const events: StoredEvent[] = await settledEvents(conversationId, 4);
    expect(typesOf(events)).toEqual(['conversation.created', 'contact.created', 'message.received', 'message.sent']);
    expect(strictlyIncreasing(events)).toBe(true);
    expect(events[0]!.data).toMatchObject({ contact: { uuid: contactId, name: 'Tess' }, channel: { public_key: business.channelKey }, is_tester: true });
    expect(events[1]!.data).toEqual({ contact: { uuid: contactId } });
    expect(events[2]!.data).toMatchObject({ uuid: inbound.body.message.uuid, direction: 'inbound', body: 'Hola desde pruebas', author: { type: 'customer', uuid: contactId, name: 'Tess' }, status: 'received' });
    expect(events[3]!.data).toMatchObject({ uuid: reply.body.message.uuid, direction: 'outbound', body: 'Respuesta simulada', status: 'sent', author: tokenAuthor(business.tokenUuid) });
  });
});
