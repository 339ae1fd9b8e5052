import { randomUUID } from 'node:crypto';
import { MessageRepository, businessScope } from '@cmsg/dal';
import {
  type TestBusiness,
  contactSeed,
  createTestBusiness,
  fakeWamid,
  inboundTextWebhook,
  minutesAgo,
  statusWebhook,
  storedCollection,
  uniquePhone,
} from '@cmsg/testing';
import { KafkaTopicProbe } from '@cmsg/testing/kafka';
import { channelOf, conversationById, deliverWebhook, eventually, inboundMessageByProviderId } from './inbound-fixtures';

describe('POST /webhooks/chat: inbound messages and statuses (CONTRACT 7)', () => {
  let business: TestBusiness;
  let commands: KafkaTopicProbe;
  let events: KafkaTopicProbe;
  const ai = randomUUID();
  const phones = { known: uniquePhone(), aiOwned: uniquePhone(), statuses: uniquePhone() };
  const conversations = { known: randomUUID(), aiOwned: randomUUID(), statuses: randomUUID() };
  const digits = (phone: string) => phone.replace(/\D/g, '');

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      seed.ai_employees = [{ uuid: ai, name: 'Max', model: 'gpt-test', wallet_tokens: 10_000 }];
      // The window closed two days ago.
      contactSeed(seed, {
        first_name: 'Ana',
        last_name: 'Known',
        phone: phones.known,
        conversation: { uuid: conversations.known, messages: [{ is_from_customer: true, body: 'old', created_at: minutesAgo(48 * 60) }] },
      });
      contactSeed(seed, { phone: phones.aiOwned, conversation: { uuid: conversations.aiOwned, ai_employee: ai, inbox_status: 'resolved' } });
      contactSeed(seed, { phone: phones.statuses, conversation: { uuid: conversations.statuses } });
    });
    commands = KafkaTopicProbe.forStackTopic('conversation-commands');
    events = KafkaTopicProbe.forStackTopic('conversation-events');
    await Promise.all([commands.start(), events.start()]);
  });

  afterAll(() => Promise.all([commands.stop(), events.stop()]));

  it('records a known contact’s message once, even when the webhook is delivered twice, and reopens the window', async () => {
    const before = await business.api.post('/conversation/status', { conversation: { uuid: conversations.known } });
    expect(before.body.window.status).toBe('closed');

    const wamid = fakeWamid();
    const payload = inboundTextWebhook({ ...channelOf(business), from: digits(phones.known), name: 'Ana WhatsApp', id: wamid, text: '¿Siguen abiertos?' });
    expect((await deliverWebhook(payload)).status).toBe(200);
    expect((await deliverWebhook(payload)).status).toBe(200);

    const message = await eventually(() => inboundMessageByProviderId(business.businessId, wamid), (found) => found?.ingest?.conversation_applied === true);
    expect(message).toMatchObject({ conversation_id: conversations.known, is_from_customer: true, body: '¿Siguen abiertos?', content_type: 'text', status: 'received' });
    // The replay is processed too (same sender, in order): wait for it before counting.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await storedCollection('messages').countDocuments({ business_id: business.businessId, provider_message_id: wamid })).toBe(1);

    const conversation = await conversationById(conversations.known);
    expect(conversation).toMatchObject({ unread_count: 2, last_message: { uuid: message!._id, body: '¿Siguen abiertos?', is_from_customer: true } });
    expect(Math.abs(conversation!.last_inbound_at!.getTime() - message!.created_at.getTime())).toBe(0);
    expect(conversation!.contact).toMatchObject({ name: 'Ana Known', profile_name: 'Ana WhatsApp' });

    const after = await business.api.post('/conversation/status', { conversation: { uuid: conversations.known } });
    expect(after.body.window.status).toBe('open');
    expect(after.body.last_message).toEqual({ uuid: message!._id, is_from_customer: true, created_at: message!.created_at.toISOString() });

    const announced = await events.waitFor((event) => event.key === conversations.known && event.value.type === 'conversation.customer_message_received');
    expect(announced.value.data).toMatchObject({ conversation_uuid: conversations.known, message_uuid: message!._id });
  });

  it('creates contact and conversation for a brand-new sender known only by platform user id and username; the last username wins', async () => {
    const userId = `MX.${randomUUID()}`;
    const first = fakeWamid();
    await deliverWebhook(inboundTextWebhook({ ...channelOf(business), from_user_id: userId, username: 'nuevo.cliente', name: 'Nuevo Cliente', id: first, text: 'Hola' }));
    const message = await eventually(() => inboundMessageByProviderId(business.businessId, first), (found) => found?.ingest?.conversation_applied === true);

    const contact = await storedCollection('contacts').findOne({ business_id: business.businessId, chat_user_id: userId });
    expect(contact).toMatchObject({ phone: null, chat_user_id: userId, chat_username: 'nuevo.cliente', username_key: 'nuevo.cliente', profile_name: 'Nuevo Cliente', is_tester: false });
    const conversation = await storedCollection('conversations').findOne({ business_id: business.businessId, contact_id: contact!._id });
    expect(conversation).toMatchObject({ _id: message!.conversation_id, unread_count: 1, contact: { name: 'Nuevo Cliente', profile_name: 'Nuevo Cliente', phone: null, chat_user_id: userId } });

    const status = await business.api.post('/conversation/status', { conversation: { chat_user_id: userId } });
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ conversation: { uuid: conversation!._id, chat_user_id: userId }, window: { status: 'open' } });

    const second = fakeWamid();
    await deliverWebhook(inboundTextWebhook({ ...channelOf(business), from_user_id: userId, username: '@Cliente.Renamed', name: 'Nuevo Cliente', id: second, text: 'Sigo aquí' }));
    await eventually(() => inboundMessageByProviderId(business.businessId, second), (found) => found?.ingest?.conversation_applied === true);
    expect(await storedCollection('contacts').countDocuments({ business_id: business.businessId, chat_user_id: userId })).toBe(1);
    expect(await storedCollection('contacts').findOne({ _id: contact!._id })).toMatchObject({ chat_username: 'Cliente.Renamed', username_key: 'cliente.renamed' });
    const byUsername = await business.api.post('/conversation/notes', { conversation: { username: '@cliente.renamed' }, note: 'found by the new username' });
    expect(byUsername.status).toBe(201);
    expect(byUsername.body.conversation.uuid).toBe(conversation!._id);
  });

  it('queues one AI run on the conversation’s command stream when an AI owns it, also when the webhook repeats', async () => {
    const wamid = fakeWamid();
    const payload = inboundTextWebhook({ ...channelOf(business), from: digits(phones.aiOwned), id: wamid, text: 'Quiero reservar' });
    await deliverWebhook(payload);
    const queued = await commands.waitFor((command) => command.key === conversations.aiOwned && command.value.kind === 'action_group');
    expect(queued.value).toMatchObject({
      kind: 'action_group',
      business_id: business.businessId,
      conversation_uuid: conversations.aiOwned,
      source: 'run_ai',
      depth: 0,
      actions: [{ type: 'run_ai' }],
    });

    await deliverWebhook(payload);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const groups = new Set(commands.matching((command) => command.key === conversations.aiOwned).map((command) => command.value.group_uuid));
    expect([...groups]).toEqual([queued.value.group_uuid]);
  });

  // No AI run while the conversation is pending: libs/inbox-ingest/src/ingest-inbound-message.usecase.spec.ts;
  // end to end, inbound-ai-reply.int-spec.ts 'gives no AI run to a pending conversation nor to a human-owned one'.

  it('moves outbound messages forward by the provider’s delivery statuses, never back', async () => {
    const sentWamid = fakeWamid();
    const failingWamid = fakeWamid();
    const outbound = (id: string, wamid: string) => ({
      _id: id,
      conversation_id: conversations.statuses,
      is_from_customer: false,
      body: 'Tu pedido salió',
      content_type: 'text',
      status: 'sent',
      provider_message_id: wamid,
      created_at: new Date(),
      author: { type: 'api_token', uuid: business.tokenUuid },
    });
    const [delivered, failing] = [randomUUID(), randomUUID()];
    const messages = new MessageRepository();
    for (const message of [outbound(delivered, sentWamid), outbound(failing, failingWamid)]) await messages.insert(businessScope(business.businessId), message);
    const recipient = { ...channelOf(business), recipient_id: digits(phones.statuses) };

    await deliverWebhook(statusWebhook({ ...recipient, message_id: sentWamid, status: 'delivered' }));
    await eventually(() => storedCollection('messages').findOne({ _id: delivered }), (message) => message?.status === 'delivered');
    // Late or repeated statuses do not move it back.
    await deliverWebhook(statusWebhook({ ...recipient, message_id: sentWamid, status: 'sent' }));
    await deliverWebhook(statusWebhook({ ...recipient, message_id: sentWamid, status: 'read' }));
    await eventually(() => storedCollection('messages').findOne({ _id: delivered }), (message) => message?.status === 'read');
    await deliverWebhook(statusWebhook({ ...recipient, message_id: sentWamid, status: 'delivered' }));

    await deliverWebhook(
      statusWebhook({ ...recipient, message_id: failingWamid, status: 'failed', errors: [{ code: 131047, title: 'Re-engagement message', error_data: { details: 'More than 24 hours' } }] }),
    );
    const failed = await eventually(() => storedCollection('messages').findOne({ _id: failing }), (message) => message?.status === 'failed');
    // CONTRACT 10.3: a late failure is mapped as a send's (131047 is WINDOW_CLOSED), its code kept.
    expect(failed!.error).toEqual({ code: 'WINDOW_CLOSED', message: expect.stringContaining('131047'), provider_code: '131047' });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await storedCollection('messages').findOne({ _id: delivered }))!.status).toBe('read');
  });
});
