import { businessScope } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import { SendAlreadyClaimed } from '@cmsg/send-engine';
import { operationMessageId } from '../conversation/operation-ids';
import { businessRow } from '../testing/in-memory-businesses';
import { channelRow } from '../testing/in-memory-channels';
import { InMemorySendWorld, quickReplyRow } from '../testing/in-memory-send-world';
import { templateRow } from '../templates/in-memory-template-stores';
import type { MessageContentInput, SendMessageCommand } from './send-message.command';
import { type SendMessageDependencies, sendMessage } from './send-message.usecase';

describe('sendMessage', () => {
  const b1 = businessScope('b1');
  const REAL_NOW = Date.UTC(2026, 10, 29, 12);
  const hoursAgo = (hours: number) => new Date(REAL_NOW - hours * 3_600_000);
  const iso = (ms: number) => new Date(ms).toISOString();
  const partId = (part: number, operationId = 'op-1') => operationMessageId('b1', operationId, part);
  const byToken = { type: 'api_token' as const, uuid: 'tok-1' };
  let world: InMemorySendWorld;
  const send = (content: MessageContentInput, command: Partial<SendMessageCommand> = {}, dependencies: Partial<SendMessageDependencies> = {}) =>
    sendMessage(b1, { conversation: { uuid: 'conv-ana' }, operationId: 'op-1', author: byToken, content, ...command }, world.dependencies(dependencies));
  const text = (body: string): MessageContentInput => ({ kind: 'text', text: body });
  const template = (name = 'order_update'): MessageContentInput => ({ kind: 'template', template: { template: { name, language: 'es' }, variables: [{ index: 1, value: 'Ana' }], button_parameters: [] } });
  const conversation = (id: string) => world.lookup.conversationRows.find((row) => row._id === id)!;

  beforeEach(() => {
    world = new InMemorySendWorld(REAL_NOW);
    world.businesses.rows.push(businessRow({ _id: 'b1', tester_clock_offset_ms: 3_600_000 }));
    world.channels.push(channelRow({ _id: 'ch1', business_id: 'b1', public_key: 'main', access_token: 'token-1' }), channelRow({ _id: 'ch2', business_id: 'b1', public_key: 'bare' }));
    world.lookup.addContactWithConversation({ _id: 'ana', business_id: 'b1', channel_id: 'ch1', phone: '+5215511111111' }, { last_inbound_at: hoursAgo(1), event_sequence: 3 });
    world.lookup.addContactWithConversation({ _id: 'bea', business_id: 'b1', channel_id: 'ch1', phone: '+5215522222222' }, { last_inbound_at: hoursAgo(30) });
    world.lookup.addContactWithConversation({ _id: 'tess', business_id: 'b1', channel_id: 'ch1', phone: '+5215533333333' }, { is_tester: true, last_inbound_at: hoursAgo(1) });
    world.lookup.addContactWithConversation({ _id: 'nic', business_id: 'b1', channel_id: 'ch2', phone: '+5215544444444' }, { last_inbound_at: hoursAgo(1) });
    world.templates.push(templateRow('b1', 'tpl-1', { channel_id: 'ch1' }));
    world.quickReplies.rows.push(
      quickReplyRow({ _id: 'qr-hours', business_id: 'b1', name: 'Hours', actions: ['We open at 9', 'and close at 18', 'every day'] }),
      quickReplyRow({ _id: 'qr-empty', business_id: 'b1', name: 'Empty', actions: [] }),
      quickReplyRow({ _id: 'qr-twin-1', business_id: 'b1', name: 'Twin', actions: ['a'] }),
      quickReplyRow({ _id: 'qr-twin-2', business_id: 'b1', name: 'Twin', actions: ['b'] }),
    );
  });

  it('sends a text once: claimed, sent, shown on the conversation, its message.sent entry recorded with the sequence that update took', async () => {
    expect(await send(text('hello'))).toEqual({
      conversation: { uuid: 'conv-ana' },
      message: { uuid: partId(0), status: 'sent', created_at: iso(REAL_NOW) },
      messages: [{ uuid: partId(0), status: 'sent', created_at: iso(REAL_NOW) }],
    });
    expect(world.sender.calls).toEqual([
      {
        channel: { phone_number_id: 'pn-ch1', access_token: 'token-1' },
        message: { to: { phone: '+5215511111111', user_id: null }, content: { type: 'text', body: 'hello' } },
        pacing: { businessId: 'b1', channelId: 'ch1', maxMessagesPerSecond: 80, messagingLimit: null, contactId: 'ana', isTemplate: false },
      },
    ]);
    expect(world.messages.rows).toEqual([expect.objectContaining({ _id: partId(0), status: 'sent', provider_message_id: 'wamid.1', body: 'hello', operation_id: 'op-1', sending_started_at: new Date(REAL_NOW) })]);
    expect(conversation('conv-ana')).toMatchObject({ last_message: { uuid: partId(0), body: 'hello', is_from_customer: false }, unread_count: 0, event_sequence: 4 });
    expect(world.outbox.recorded).toEqual([{ collection: 'messages', businessId: 'b1', documentId: partId(0), entries: [expect.objectContaining({ type: 'message.sent', sequence: 4 })] }]);
  });

  it('answers a repeat of the operation with what the first attempt stored, without resolving again or calling the provider', async () => {
    const first = await send(text('hello'));
    conversation('conv-ana').last_inbound_at = hoursAgo(30);
    expect(await send(text('something else'))).toEqual(first);
    expect(world.sender.calls).toHaveLength(1);
  });

  it('sends a quick reply as one text per action, in order, at strictly increasing times', async () => {
    const { messages } = await send({ kind: 'quick_reply', quick_reply: { name: 'hours' } });
    expect(messages).toEqual([0, 1, 2].map((part) => ({ uuid: partId(part), status: 'sent', created_at: iso(REAL_NOW + part) })));
    expect(world.sender.calls.map((call) => call.message.content)).toEqual([
      { type: 'text', body: 'We open at 9' },
      { type: 'text', body: 'and close at 18' },
      { type: 'text', body: 'every day' },
    ]);
    expect(world.messages.rows.map((row) => [row.operation_part, row.operation_parts])).toEqual([
      [0, 3],
      [1, 3],
      [2, 3],
    ]);
  });

  it("replaces payment markers with the conversation's latest open payment", async () => {
    world.payments.push({ _id: 'pay-1', business_id: 'b1', conversation_id: 'conv-ana', link: 'https://pay.example/1', status: 'open', created_at: hoursAgo(2) } as never);
    await send(text('Pay here: [[payment.link]]'));
    expect(world.sender.calls[0]!.message.content).toEqual({ type: 'text', body: 'Pay here: https://pay.example/1' });
  });

  it("simulates a tester conversation's send on the business's clock: no provider call, message.sent recorded with the insert", async () => {
    const { message } = await send(text('hi tester'), { conversation: { uuid: 'conv-tess' } });
    expect(message).toEqual({ uuid: partId(0), status: 'simulated', created_at: iso(REAL_NOW + 3_600_000) });
    expect(world.sender.calls).toEqual([]);
    expect(world.outbox.recorded).toEqual([expect.objectContaining({ collection: 'messages', documentId: partId(0), entries: [expect.objectContaining({ type: 'message.sent' })] })]);
    expect(conversation('conv-tess').last_message).toMatchObject({ uuid: partId(0) });
  });

  it('sends a template outside the window, where free-form content is WINDOW_CLOSED', async () => {
    const toBea = { conversation: { uuid: 'conv-bea' } };
    await expect(send(text('hello'), toBea)).rejects.toMatchObject({ code: 'WINDOW_CLOSED' });
    await expect(send({ kind: 'quick_reply', quick_reply: { uuid: 'qr-hours' } }, toBea)).rejects.toMatchObject({ code: 'WINDOW_CLOSED' });
    expect(world.messages.rows).toEqual([]);
    expect((await send(template(), { ...toBea, operationId: 'op-2' })).message).toMatchObject({ status: 'sent' });
    expect(world.sender.calls.map((call) => call.message.content)).toEqual([{ type: 'template', name: 'order_update', language: 'es', body_parameters: ['Ana'], button_parameters: [] }]);
    expect(world.messages.rows[0]).toMatchObject({ body: 'Hola Ana', content_type: 'template' });
  });

  it('sends the quick reply of quick_reply_or_template inside the window, its template outside', async () => {
    const either: MessageContentInput = { kind: 'quick_reply_or_template', quick_reply: { uuid: 'qr-hours' }, template: { template: { uuid: 'tpl-1' }, variables: [{ index: 1, value: 'Ana' }], button_parameters: [] } };
    expect((await send(either)).messages).toHaveLength(3);
    expect((await send(either, { conversation: { uuid: 'conv-bea' }, operationId: 'op-2' })).messages).toEqual([expect.objectContaining({ uuid: partId(0, 'op-2') })]);
    expect(world.sender.calls[3]!.message.content).toMatchObject({ type: 'template' });
  });

  it('sends a file with its caption as the media of its type', async () => {
    world.files.set('f1', { uuid: 'f1', link: 'https://files.example/f1', link_expires_at: iso(REAL_NOW), mime_type: 'image/png', file_name: 'a.png', size: 10, can_transcribe: true });
    await send({ kind: 'file', file_uuid: 'f1', caption: 'our menu' });
    expect(world.sender.calls[0]!.message.content).toEqual({ type: 'image', link: 'https://files.example/f1', caption: 'our menu' });
    expect(world.messages.rows[0]).toMatchObject({ content_type: 'image', body: 'our menu', outbound_file: { file_uuid: 'f1', mime_type: 'image/png' } });
  });

  it('stores a provider failure with its codes and raises it again for a repeat, without another call', async () => {
    world.sender.respond = () => {
      throw new CatalogError('SEND_FAILED', 'The provider refused.', { providerCode: '131000' });
    };
    await expect(send(text('hello'))).rejects.toMatchObject({ code: 'SEND_FAILED', providerCode: '131000' });
    expect(world.messages.rows[0]).toMatchObject({ status: 'failed', error: { code: 'SEND_FAILED', message: 'The provider refused.', provider_code: '131000' } });
    expect(world.outbox.recorded.map((recorded) => recorded.entries[0]!.type)).toEqual(['message.status_updated']);
    await expect(send(text('hello'))).rejects.toMatchObject({ code: 'SEND_FAILED', providerCode: '131000' });
    expect(world.sender.calls).toHaveLength(1);
  });

  it("records the contact's marketing opt-out the provider reports (131050), then raises CONTACT_OPTED_OUT", async () => {
    const consents: unknown[] = [];
    world.sender.respond = () => {
      throw new CatalogError('CONTACT_OPTED_OUT', 'Stopped marketing messages.', { providerCode: '131050' });
    };
    await expect(send(text('hello'), {}, { recordConsent: async (_scope, update) => void consents.push(update) })).rejects.toMatchObject({ code: 'CONTACT_OPTED_OUT' });
    expect(consents).toEqual([{ contactId: 'ana', conversationId: 'conv-ana', consent: { marketing: 'opted_out' }, source: 'provider', author: expect.objectContaining({ type: 'system' }) }]);
  });

  it('forgets a claim refused before any network call, so a repeat sends it', async () => {
    world.sender.respond = () => {
      throw new CatalogError('BSUID_SEND_DISABLED');
    };
    await expect(send(text('hello'))).rejects.toMatchObject({ code: 'BSUID_SEND_DISABLED' });
    expect(world.messages.rows).toEqual([]);
    world.sender.respond = () => ({ provider_message_id: 'wamid.ok' });
    expect((await send(text('hello'))).message).toMatchObject({ status: 'sent' });
  });

  it('stores nothing when the send engine refuses before the claim', async () => {
    world.sender.refuseBeforeClaim = new CatalogError('MESSAGING_LIMIT_REACHED');
    await expect(send(text('hello'))).rejects.toMatchObject({ code: 'MESSAGING_LIMIT_REACHED' });
    expect(world.messages.rows).toEqual([]);
    expect(world.outbox.recorded).toEqual([]);
  });

  it('answers the outcome of a concurrent attempt that holds the claim', async () => {
    const concurrent = {
      sendMessage: async () => {
        await world.messages.insertIfAbsent(b1, { _id: partId(0), conversation_id: 'conv-ana', is_from_customer: false, created_at: new Date(REAL_NOW), status: 'sent', body: 'hello', content_type: 'text' });
        throw new SendAlreadyClaimed();
      },
    };
    expect(await send(text('hello'), {}, { sender: concurrent })).toMatchObject({ message: { uuid: partId(0), status: 'sent' } });
    expect(conversation('conv-ana').last_message).toMatchObject({ uuid: partId(0) });
  });

  it('answers SERVICE_UNAVAILABLE when other attempts keep taking and giving up the claim', async () => {
    const unlucky = { sendMessage: async () => Promise.reject(new SendAlreadyClaimed()) };
    await expect(send(text('hello'), {}, { sender: unlucky })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  it('answers UPDATE_FAILED when the sent message cannot be recorded', async () => {
    world.messages.markSent = async () => null;
    await expect(send(text('hello'))).rejects.toMatchObject({ code: 'UPDATE_FAILED' });
  });

  it.each([
    ['an unknown conversation', text('x'), { conversation: { uuid: 'conv-nobody' } }, 'CONVERSATION_NOT_FOUND'],
    ['a channel without credentials', text('x'), { conversation: { uuid: 'conv-nic' } }, 'CHANNEL_NOT_CONFIGURED'],
    ['an unknown quick reply', { kind: 'quick_reply', quick_reply: { uuid: 'qr-nope' } }, {}, 'QUICK_REPLY_NOT_FOUND'],
    ['a quick reply name two share', { kind: 'quick_reply', quick_reply: { name: 'twin' } }, {}, 'QUICK_REPLY_AMBIGUOUS'],
    ['a quick reply without actions', { kind: 'quick_reply', quick_reply: { uuid: 'qr-empty' } }, {}, 'QUICK_REPLY_EMPTY'],
    ['an unknown template', template('nope'), {}, 'TEMPLATE_NOT_FOUND'],
    ['a file on a tester conversation', { kind: 'file', file_uuid: 'f1' }, { conversation: { uuid: 'conv-tess' } }, 'TESTER_CONVERSATION_NOT_WRITABLE'],
    ['an unknown file', { kind: 'file', file_uuid: 'f-nope' }, {}, 'FILE_NOT_FOUND'],
    ['a text too long once its markers are replaced', text('x'.repeat(4090) + '[[payment.link]]'), {}, 'PREPARE_FAILED'],
  ] as [string, MessageContentInput, Partial<SendMessageCommand>, string][])('refuses %s with %s before anything is stored or sent', async (_case, content, command, code) => {
    world.payments.push({ _id: 'pay-1', business_id: 'b1', conversation_id: 'conv-ana', link: 'https://pay.example/1', status: 'open', created_at: hoursAgo(2) } as never);
    await expect(send(content, command)).rejects.toMatchObject({ code });
    expect(world.messages.rows).toEqual([]);
    expect(world.sender.calls).toEqual([]);
  });

  it("answers TEMPLATE_AMBIGUOUS for a name on several channels, none the conversation's", async () => {
    world.templates.length = 0;
    world.templates.push(templateRow('b1', 'tpl-a', { channel_id: 'ch7' }), templateRow('b1', 'tpl-b', { channel_id: 'ch8' }));
    await expect(send(template())).rejects.toMatchObject({ code: 'TEMPLATE_AMBIGUOUS' });
  });

  it('answers FETCH_FAILED for a tester conversation whose business is gone', async () => {
    world.businesses.rows.length = 0;
    await expect(send(text('x'), { conversation: { uuid: 'conv-tess' } })).rejects.toMatchObject({ code: 'FETCH_FAILED' });
  });
});
