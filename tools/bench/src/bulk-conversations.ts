import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';

const BATCH = 2000;

export interface BulkConversationsOptions {
  businessId: string;
  /** Index of the first conversation: conversation i was last active i minutes ago. */
  from: number;
  count: number;
  /** Messages per conversation, oldest first, alternating customer and business (0: none). */
  messages: number;
  /** Inbox status and tags of conversation i (default: resolved, no tags). Every contact's `plan` attribute is gold for every 5th, else free. */
  attributes?: (index: number) => { inbox_status?: string; tag_ids?: string[] };
  /** The stored id of the channel they are on (default `bench`, a channel that does not exist: enough for reads, not for sends). */
  channelId?: string;
}

/**
 * Contacts and their conversations (and messages) in the shape the product stores them, written in
 * bulk through the driver: the seed loader upserts one document at a time by `{_id, business_id}`,
 * which the local server answers by scanning, so it cannot load 100,000 conversations in a
 * benchmark's time. Answers the uuids of the conversations written, newest first.
 */
/** The phone digits of the `index`-th contact insertBulkConversations writes. */
export function bulkContactPhone(index: number): string {
  return `5215500${String(index).padStart(6, '0')}`;
}

export async function insertBulkConversations(options: BulkConversationsOptions): Promise<string[]> {
  const { businessId } = options;
  const channelId = options.channelId ?? 'bench';
  const now = Date.now();
  const uuids: string[] = [];
  const collection = (name: string) => mongoose.connection.collection<{ _id: string }>(name);
  for (let start = options.from; start < options.from + options.count; start += BATCH) {
    const contacts = [];
    const conversations = [];
    const messages = [];
    for (let index = start; index < Math.min(options.from + options.count, start + BATCH); index += 1) {
      const at = new Date(now - index * 60_000);
      const contactId = randomUUID();
      const conversationId = randomUUID();
      const phone = bulkContactPhone(index);
      const conversationState = { tag_ids: [] as string[], inbox_status: 'resolved', ...options.attributes?.(index) };
      contacts.push({
        _id: contactId,
        business_id: businessId,
        channel_id: channelId,
        first_name: 'Bench',
        last_name: `#${index}`,
        first_name_key: 'bench',
        last_name_key: `#${index}`,
        phone: `+${phone}`,
        phone_key: phone,
        is_tester: false,
        attributes: [{ k: 'plan', v: index % 5 === 0 ? 'gold' : 'free' }],
        // The copy of its conversation that contact search reads (docs/contacts.md).
        tag_ids: conversationState.tag_ids,
        inbox_status: conversationState.inbox_status,
        last_inbound_at: at,
        revision: 0,
        outbox: [],
        created_at: at,
        updated_at: at,
      });
      const thread = Array.from({ length: options.messages }, (_, position) => ({
        _id: randomUUID(),
        business_id: businessId,
        conversation_id: conversationId,
        is_from_customer: position % 2 === 0,
        body: position % 2 === 0 ? `Hello, this is customer ${index}` : 'Thanks for writing, we will get back to you shortly.',
        content_type: 'text',
        status: position % 2 === 0 ? 'received' : 'sent',
        media_transcription_pending: false,
        is_simulated: false,
        created_at: new Date(at.getTime() - (options.messages - 1 - position) * 1000),
      }));
      messages.push(...thread);
      const last = thread.at(-1);
      conversations.push({
        _id: conversationId,
        business_id: businessId,
        contact_id: contactId,
        contact: { name: `Bench #${index}`, profile_name: null, phone: `+${phone}`, chat_user_id: null },
        channel_id: channelId,
        ai_employee_id: null,
        mailbox_id: null,
        tag_ids: [],
        inbox_status: 'resolved',
        ...options.attributes?.(index),
        last_message: last
          ? { uuid: last._id, body: last.body, content_type: 'text', is_from_customer: last.is_from_customer, created_at: last.created_at }
          : { uuid: randomUUID(), body: 'hello', content_type: 'text', is_from_customer: true, created_at: at },
        last_inbound_at: at,
        unread_count: 1,
        media_awaiting_transcription: 0,
        is_tester: false,
        outbox: [],
        sort_at: at,
        created_at: at,
        updated_at: at,
      });
      uuids.push(conversationId);
    }
    await collection('contacts').insertMany(contacts, { ordered: false });
    if (messages.length > 0) await collection('messages').insertMany(messages, { ordered: false });
    await collection('conversations').insertMany(conversations, { ordered: false });
  }
  return uuids;
}

export interface BulkTimelineOptions {
  businessId: string;
  conversationId: string;
  /** Items in all, one second apart, newest now: four messages (customer and business in turn), then a note, then an inbox status change. */
  items: number;
}

/** A long timeline for one conversation: messages, notes and inbox status changes written in bulk, as the product stores them. */
export async function insertBulkTimeline(options: BulkTimelineOptions): Promise<void> {
  const now = Date.now();
  const messages = [];
  const entries = [];
  for (let index = 0; index < options.items; index += 1) {
    const at = new Date(now - (options.items - index) * 1000);
    const common = { _id: randomUUID(), business_id: options.businessId, conversation_id: options.conversationId, created_at: at };
    const slot = index % 6;
    if (slot < 4) {
      const fromCustomer = slot % 2 === 0;
      messages.push({
        ...common,
        is_from_customer: fromCustomer,
        body: fromCustomer ? `Customer message ${index}` : `Business answer ${index}`,
        content_type: 'text',
        status: fromCustomer ? 'received' : 'sent',
        media_transcription_pending: false,
        is_simulated: false,
        author: fromCustomer ? null : { type: 'api_token', uuid: null },
      });
    } else if (slot === 4) {
      entries.push({ ...common, kind: 'note', body: `Note ${index}`, data: null, author: { type: 'api_token', uuid: null } });
    } else {
      entries.push({ ...common, kind: 'inbox_status_changed', body: null, data: { from: 'resolved', to: 'pending', pending_reason: 'marked_pending' }, author: { type: 'system', uuid: null } });
    }
  }
  const collection = (name: string) => mongoose.connection.collection<{ _id: string }>(name);
  if (messages.length > 0) await collection('messages').insertMany(messages, { ordered: false });
  if (entries.length > 0) await collection('timeline_events').insertMany(entries, { ordered: false });
}
