import type { InboundSender, WebhookMessage } from '@cmsg/chat-platform';
import { CatalogError } from '@cmsg/errors';
import { runWithRequestContext } from '@cmsg/platform';
import type { InboundMessageRecord } from './chat-inbound-record';
import { BROADCAST_REPLY_WINDOW_MS, ingestInboundMessage } from './ingest-inbound-message.usecase';
import { inboxIds } from './name-based-ids';
import { channelRow, contactRow, conversationRow, inMemoryInbox } from './testing/in-memory-inbox-ports';

const NOW = new Date('2026-03-02T12:00:00Z');
const SENT = String(Date.parse('2026-03-02T11:59:30Z') / 1000);
/** The webhook came after its provider second (received 11:59:31): the message is placed at that second's last millisecond. */
const SENT_AT = new Date('2026-03-02T11:59:30.999Z');
const ANA = { wa_id: '16505551234', profile_name: 'Ana' };
const CUSTOMER_AUTHOR = (contactId: string, name: string | null = 'Ana') => ({ type: 'customer', uuid: contactId, name });

function inbound(message: Partial<WebhookMessage> = {}, sender: InboundSender = ANA, phoneNumberId = 'pn-1'): InboundMessageRecord {
  return {
    kind: 'message',
    phone_number_id: phoneNumberId,
    sender,
    message: { from: sender.wa_id, id: 'wamid.in-1', timestamp: SENT, type: 'text', text: { body: 'Hola, ¿tienen mesa?' }, ...message },
    received_at: '2026-03-02T11:59:31.000Z',
  };
}

const image = (id = 'wamid.img-1', mediaId = 'media-1'): Partial<WebhookMessage> => ({ id, type: 'image', text: undefined, image: { id: mediaId, mime_type: 'image/jpeg', caption: 'the menu' } });

describe('ingestInboundMessage', () => {
  let inbox: ReturnType<typeof inMemoryInbox>;
  beforeEach(() => {
    inbox = inMemoryInbox(NOW);
    inbox.repositories.businessRows.push({ _id: 'b1', vision_wallet_tokens: 1000 }, { _id: 'b2', vision_wallet_tokens: 1000 });
    inbox.repositories.channelRows.push(channelRow('b1', 'c1', 'pn-1'), channelRow('b2', 'c2', 'pn-2'));
    inbox.media.media.set('media-1', { bytes: Buffer.from('jpeg bytes'), mime_type: 'image/jpeg' });
  });

  const ingest = (record: InboundMessageRecord, attempt = 1) => ingestInboundMessage(inbox.dependencies, record, attempt);
  const contactId = inboxIds.contact('c1', 'phone:16505551234');
  const conversationId = inboxIds.conversation(contactId);
  const messageId = inboxIds.message('c1', 'wamid.in-1');

  it('creates a new sender contact and conversation, records the message and counts it, with its events in order', async () => {
    await expect(ingest(inbound())).resolves.toEqual({ outcome: 'recorded', messageId, conversationId, media: null, aiRunQueued: false });

    const { repositories } = inbox;
    expect(repositories.contactRows).toEqual([
      expect.objectContaining({ _id: contactId, business_id: 'b1', channel_id: 'c1', phone: '+16505551234', phone_key: '16505551234', profile_name: 'Ana', acquisition_source: 'inbound_message' }),
    ]);
    expect(repositories.message(messageId)).toMatchObject({
      business_id: 'b1',
      conversation_id: conversationId,
      is_from_customer: true,
      body: 'Hola, ¿tienen mesa?',
      content_type: 'text',
      provider_message_id: 'wamid.in-1',
      created_at: SENT_AT,
      ingest: { conversation_applied: true, ai_run_queued: false, consent_applied: true },
    });
    expect(repositories.conversation(conversationId)).toMatchObject({
      business_id: 'b1',
      contact_id: contactId,
      channel_id: 'c1',
      contact: { profile_name: 'Ana', phone: '+16505551234' },
      unread_count: 1,
      last_inbound_at: SENT_AT,
      last_inbound_message_id: messageId,
      last_message: { uuid: messageId, body: 'Hola, ¿tienen mesa?', is_from_customer: true },
      sort_at: SENT_AT,
    });
    expect(inbox.recorded.map((event) => [event.collection, event.documentId, event.entry.type])).toEqual([
      ['conversations', conversationId, 'conversation.created'],
      ['contacts', contactId, 'contact.created'],
      ['conversations', conversationId, 'message.received'],
    ]);
    expect(inbox.recorded[2]!.entry).toMatchObject({
      id: inboxIds.customerMessageEvent(messageId),
      sequence: 1,
      author: CUSTOMER_AUTHOR(contactId),
      data: { uuid: messageId, direction: 'inbound', body: 'Hola, ¿tienen mesa?', status: 'received' },
    });
    expect(inbox.progress).toEqual([`replied b1 ${conversationId} ${new Date(NOW.getTime() - BROADCAST_REPLY_WINDOW_MS).toISOString()}`]);
  });

  it('is redelivery-safe: the same webhook again writes and records nothing new', async () => {
    const first = await ingest(inbound());
    await expect(ingest(inbound())).resolves.toEqual(first);
    const { repositories } = inbox;
    expect([repositories.contactRows.length, repositories.conversationRows.length, repositories.messageRows.length]).toEqual([1, 1, 1]);
    expect(repositories.conversation(conversationId)!.unread_count).toBe(1);
    expect(inbox.recorded.map((event) => event.entry.type)).toEqual(['conversation.created', 'contact.created', 'message.received']);
  });

  it('finds a known sender by phone, else by platform user id, refreshing what the provider now tells', async () => {
    const { repositories } = inbox;
    repositories.contactRows.push(
      contactRow({ _id: 'k-old', business_id: 'b1', channel_id: 'c1', phone: '+16505551234', phone_key: '16505551234', profile_name: 'A.', created_at: new Date('2025-01-01T00:00:00Z') }),
      contactRow({ _id: 'k-user', business_id: 'b1', channel_id: 'c1', chat_user_id: 'US.42', created_at: new Date('2025-01-01T00:00:00Z') }),
    );
    repositories.conversationRows.push(conversationRow({ _id: 'conv-old', business_id: 'b1', contact_id: 'k-old', channel_id: 'c1', created_at: new Date('2025-01-01T00:00:00Z') }));

    await expect(ingest(inbound())).resolves.toMatchObject({ conversationId: 'conv-old' });
    expect(repositories.contactRows.find((row) => row._id === 'k-old')).toMatchObject({ profile_name: 'Ana', updated_at: NOW });
    expect(repositories.conversation('conv-old')!.contact).toMatchObject({ profile_name: 'Ana' });

    await ingest(inbound({ id: 'wamid.in-2', from: undefined }, { user_id: 'US.42', username: '@ana.g' }));
    expect(repositories.contactRows.find((row) => row._id === 'k-user')).toMatchObject({ chat_username: 'ana.g', username_key: 'ana.g' });
    expect(repositories.contactRows).toHaveLength(2);
    expect(inbox.recorded.map((event) => event.entry.type)).toEqual(['message.received', 'conversation.created', 'message.received']);
  });

  it('creates a brand-new sender known only by platform user id and username; the last username wins', async () => {
    const sender = { user_id: 'MX.7', username: 'nuevo.cliente', profile_name: 'Nuevo Cliente' };
    const first = await ingest(inbound({ from: undefined }, sender));
    await ingest(inbound({ id: 'wamid.in-2', from: undefined }, { ...sender, username: '@Cliente.Renamed' }));

    const newContactId = inboxIds.contact('c1', 'user:MX.7');
    expect(inbox.repositories.contactRows).toEqual([
      expect.objectContaining({ _id: newContactId, phone: null, chat_user_id: 'MX.7', chat_username: 'Cliente.Renamed', username_key: 'cliente.renamed', profile_name: 'Nuevo Cliente' }),
    ]);
    expect(first).toMatchObject({ conversationId: inboxIds.conversation(newContactId) });
    expect(inbox.repositories.conversation(inboxIds.conversation(newContactId))).toMatchObject({ unread_count: 2, contact: { profile_name: 'Nuevo Cliente', phone: null, chat_user_id: 'MX.7' } });
  });

  it('keeps each business apart: the same phone on another business channel is another contact', async () => {
    inbox.repositories.contactRows.push(contactRow({ _id: 'k-b2', business_id: 'b2', channel_id: 'c2', phone_key: '16505551234', created_at: new Date('2025-01-01T00:00:00Z') }));
    const result = await ingest(inbound());
    expect(result).toMatchObject({ conversationId });
    expect(inbox.repositories.conversation(conversationId)!.business_id).toBe('b1');
    expect(inbox.recorded.every((event) => event.businessId === 'b1')).toBe(true);
  });

  it('gives a sender who comes back after an erasure a new contact', async () => {
    inbox.repositories.erasedContactIds.push({ business_id: 'b1', contact_id: contactId });
    const result = await ingest(inbound());
    expect(result).toMatchObject({ outcome: 'recorded' });
    expect(inbox.repositories.contactRows.map((row) => row._id)).not.toContain(contactId);
    expect(inbox.repositories.contactRows).toHaveLength(1);
  });

  it('ignores a channel it does not have and a sender with nothing to know them by', async () => {
    await expect(ingest(inbound({}, ANA, 'pn-9'))).resolves.toEqual({ outcome: 'unknown_channel' });
    await expect(ingest(inbound({ from: undefined }, { profile_name: 'Nobody' }))).resolves.toEqual({ outcome: 'unknown_sender' });
    expect(inbox.repositories.messageRows).toEqual([]);
    expect(inbox.recorded).toEqual([]);
  });

  it('never lets a late redelivery of an older message hide the newer last message', async () => {
    await ingest(inbound({ id: 'wamid.new', timestamp: SENT, text: { body: 'newer' } }));
    await ingest(inbound({ id: 'wamid.old', timestamp: String(Date.parse('2026-03-02T11:00:00Z') / 1000), text: { body: 'older' } }));
    expect(inbox.repositories.conversation(conversationId)).toMatchObject({ unread_count: 2, last_message: { body: 'newer' }, last_inbound_at: SENT_AT });
  });

  describe('consent keywords', () => {
    it('a text that is one keyword opts in or out of both categories, once per message', async () => {
      await ingest(inbound({ text: { body: '  Stop ' } }));
      await ingest(inbound({ text: { body: '  Stop ' } }));
      expect(inbox.consents).toEqual([
        { businessId: 'b1', update: { contactId, conversationId, author: CUSTOMER_AUTHOR(contactId), consent: { marketing: 'opted_out', utility: 'opted_out' }, source: 'keyword' } },
      ]);
    });

    it('uses the business own lists, and reads nothing into a sentence', async () => {
      inbox.repositories.businessRows[0]!.consent_keywords = { opt_out: ['BASTA'] };
      await ingest(inbound({ id: 'wamid.a', text: { body: 'please stop' } }));
      await ingest(inbound({ id: 'wamid.b', text: { body: 'STOP' } }));
      await ingest(inbound({ id: 'wamid.c', text: { body: 'basta' } }));
      expect(inbox.consents.map((consent) => consent.update.consent)).toEqual([{ marketing: 'opted_out', utility: 'opted_out' }]);
    });
  });

  describe('AI runs', () => {
    const CONV = '0c5e4a39-2b7d-4d4e-9a51-7d2f8c1e6b10';
    beforeEach(() => {
      inbox.repositories.contactRows.push(contactRow({ _id: 'k1', business_id: 'b1', channel_id: 'c1', phone_key: '16505551234', profile_name: 'Ana', created_at: new Date('2025-01-01T00:00:00Z') }));
      inbox.repositories.conversationRows.push(
        conversationRow({ _id: CONV, business_id: 'b1', contact_id: 'k1', channel_id: 'c1', ai_employee_id: 'ai-1', inbox_status: 'open', created_at: new Date('2025-01-01T00:00:00Z') }),
      );
    });

    it('queues one run for the message when an AI owns the conversation, also on redelivery', async () => {
      await expect(runWithRequestContext({ requestId: 'req-1' }, () => ingest(inbound()))).resolves.toMatchObject({ aiRunQueued: true });
      await expect(ingest(inbound())).resolves.toMatchObject({ aiRunQueued: true });
      expect(inbox.aiRuns).toEqual([
        {
          key: CONV,
          command: expect.objectContaining({
            group_uuid: inboxIds.aiRunGroup(messageId),
            business_id: 'b1',
            token_uuid: '',
            request_id: 'req-1',
            conversation_uuid: CONV,
            in_reply_to_message_uuid: messageId,
            created_at: NOW.toISOString(),
          }),
        },
      ]);
    });

    it('queues none while the conversation waits for a human', async () => {
      inbox.repositories.conversation(CONV)!.inbox_status = 'pending';
      await expect(ingest(inbound())).resolves.toMatchObject({ aiRunQueued: false });
      expect(inbox.aiRuns).toEqual([]);
    });
  });

  describe('media', () => {
    const imageMessageId = inboxIds.message('c1', 'wamid.img-1');

    it('stores the media, transcribes it, charges the vision wallet once and no longer counts it as awaiting', async () => {
      await expect(ingest(inbound(image()))).resolves.toMatchObject({ media: 'transcribed' });
      await expect(ingest(inbound(image()))).resolves.toMatchObject({ media: 'transcribed' });

      const fileUuid = inboxIds.mediaFile('b1', 'media-1');
      expect(inbox.repositories.message(imageMessageId)).toMatchObject({
        body: 'the menu',
        content_type: 'image',
        transcription: 'image of 10 bytes',
        media_transcription_pending: false,
        media: { provider_media_id: 'media-1', file_uuid: fileUuid, size: 10, transcription_status: 'transcribed' },
      });
      expect(inbox.media.lookups).toEqual([{ mediaId: 'media-1', accessToken: 'token-c1' }]);
      expect(inbox.transcriber.calls).toEqual(['describeImage:vision-1']);
      expect(inbox.repositories.walletCharges).toEqual([{ business_id: 'b1', operationId: `transcription:${imageMessageId}`, tokens: 120 }]);
      expect(inbox.repositories.conversation(conversationId)).toMatchObject({ media_awaiting_transcription: 0, awaiting_media_message_ids: [] });
    });

    it('leaves media awaiting while the wallet is empty, and transcribes it when the customer writes again after a top-up', async () => {
      inbox.repositories.businessRows[0]!.vision_wallet_tokens = 0;
      await expect(ingest(inbound(image()))).resolves.toMatchObject({ media: 'wallet_empty' });
      expect(inbox.transcriber.calls).toEqual([]);
      expect(inbox.repositories.walletCharges).toEqual([]);
      expect(inbox.repositories.conversation(conversationId)).toMatchObject({ media_awaiting_transcription: 1, awaiting_media_message_ids: [imageMessageId] });

      inbox.repositories.businessRows[0]!.vision_wallet_tokens = 500;
      await ingest(inbound({ id: 'wamid.in-2', text: { body: 'hello?' } }));
      expect(inbox.repositories.message(imageMessageId)!.media).toMatchObject({ transcription_status: 'transcribed' });
      expect(inbox.repositories.conversation(conversationId)).toMatchObject({ media_awaiting_transcription: 0, awaiting_media_message_ids: [] });
    });

    it('settles media it cannot transcribe: too large for the platform, or of a type without transcription', async () => {
      inbox.media.media.set('media-big', { bytes: Buffer.from('x'), mime_type: 'video/mp4', file_size: 100 * 1024 * 1024 + 1 });
      inbox.media.media.set('media-video', { bytes: Buffer.from('mp4'), mime_type: 'video/mp4' });
      const video = (id: string, mediaId: string): Partial<WebhookMessage> => ({ id, type: 'video', text: undefined, video: { id: mediaId, mime_type: 'video/mp4' } });

      await expect(ingest(inbound(video('wamid.big', 'media-big')))).resolves.toMatchObject({ media: 'untranscribable' });
      await expect(ingest(inbound(video('wamid.video', 'media-video')))).resolves.toMatchObject({ media: 'untranscribable' });
      expect(inbox.repositories.message(inboxIds.message('c1', 'wamid.big'))!.media).toMatchObject({
        transcription_status: 'untranscribable',
        transcription_error: `The media has ${100 * 1024 * 1024 + 1} bytes; at most ${100 * 1024 * 1024} are kept.`,
      });
      expect(inbox.repositories.message(inboxIds.message('c1', 'wamid.video'))!.media).toMatchObject({
        transcription_status: 'untranscribable',
        transcription_error: 'Media of type video/mp4 and 3 bytes cannot be transcribed automatically.',
      });
      expect(inbox.transcriber.calls).toEqual([]);
    });

    it('throws a transient failure while attempts are left (the stream retries), then records it as failed', async () => {
      inbox.media.failNext(new Error('socket hang up'));
      await expect(ingest(inbound(image()), 1)).rejects.toThrow('socket hang up');
      expect(inbox.repositories.message(imageMessageId)!.media).toMatchObject({ transcription_status: 'pending' });

      inbox.transcriber.failNext(new Error('AI timeout'));
      await expect(ingest(inbound(image()), 3)).resolves.toMatchObject({ media: 'failed' });
      expect(inbox.repositories.message(imageMessageId)!.media).toMatchObject({ transcription_status: 'failed', transcription_error: 'Transcribing the media failed: AI timeout' });
      expect(inbox.repositories.conversation(conversationId)!.unread_count).toBe(1);
    });

    it('records a provider refusal as failed at once: a retry would not change it', async () => {
      inbox.media.failNext(new CatalogError('FETCH_FAILED', 'Looking up media media-1 failed: unknown media'));
      await expect(ingest(inbound(image()), 1)).resolves.toMatchObject({ media: 'failed' });
      expect(inbox.repositories.message(imageMessageId)!.media).toMatchObject({ transcription_error: 'Fetching the media failed: FETCH_FAILED: Looking up media media-1 failed: unknown media' });
    });
  });
});
