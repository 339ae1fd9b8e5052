import type { InboundSender } from '@cmsg/chat-platform';
import {
  type BusinessScope,
  type ChannelEntity,
  type ContactEntity,
  type ContactLookupKey,
  type ConversationEntity,
  type OutboxEntry,
  businessScope,
  contactSnapshotOf,
  phoneLookupKey,
  usernameLookupKey,
} from '@cmsg/dal';
import { type OutboxRecorder, SYSTEM_AUTHOR, conversationCreatedData, outboxEntry } from '@cmsg/events';
import { inboxIds, newSenderContactId } from './name-based-ids';
import type { InboxRepositories } from './ports';

export type SenderContact = ContactEntity;
export type SenderConversation = ConversationEntity;

export type InboundChannel = Pick<ChannelEntity, 'business_id' | 'phone_number_id' | 'access_token' | 'public_key'> & { _id: string };

/** What finding or creating a sender's contact and conversation reads and writes. */
export type SenderRepositories = Pick<InboxRepositories, 'contacts' | 'contactErasures' | 'conversations'>;

/** How the sender is known: phone digits, platform user id (BSUID), username; at least one is set. */
interface SenderKeys {
  phoneKey: string | undefined;
  userId: string | undefined;
  usernameKey: string | undefined;
}

function keysOf(sender: InboundSender): SenderKeys | undefined {
  const phoneKey = sender.wa_id ? phoneLookupKey(sender.wa_id) || undefined : undefined;
  const userId = sender.user_id || undefined;
  const usernameKey = sender.username ? usernameLookupKey(sender.username) || undefined : undefined;
  return phoneKey || userId || usernameKey ? { phoneKey, userId, usernameKey } : undefined;
}

/**
 * The contact and conversation of an inbound sender on a channel, created for a new sender
 * (CONTRACT 7). A contact belongs to one channel; it is found by phone digits, else platform user
 * id, else username. The contact keeps what the provider tells: phone, user id, the last username
 * seen and the profile name; the conversation's contact snapshot follows. Ids of new records derive
 * from the sender, so two deliveries of a new sender's first message create it once, with one
 * conversation.created event.
 */
export async function resolveSenderConversation(
  repositories: SenderRepositories,
  channel: InboundChannel,
  sender: InboundSender,
  now: Date,
  events: OutboxRecorder,
): Promise<{ contact: SenderContact; conversation: SenderConversation } | undefined> {
  const keys = keysOf(sender);
  if (!keys) return undefined;
  const scope = businessScope(channel.business_id);
  const found = await findContact(repositories, scope, channel._id, keys);
  const { contact, createdEvent } = found
    ? { contact: await refreshContact(repositories, scope, found, sender, keys, now), createdEvent: null }
    : await createContact(repositories, scope, channel._id, sender, keys, now);
  const conversation = await conversationOf(repositories, scope, channel, contact, now, events);
  // After conversation.created, so its sequence follows it, as for a contact the API creates.
  if (createdEvent) await events.recordQuietly('contacts', scope, contact._id, [createdEvent]);
  return { contact, conversation };
}

async function findContact(repositories: SenderRepositories, scope: BusinessScope, channelId: string, keys: SenderKeys): Promise<SenderContact | null> {
  const lookups: (ContactLookupKey | undefined)[] = [
    keys.phoneKey ? { phone_key: keys.phoneKey } : undefined,
    keys.userId ? { chat_user_id: keys.userId } : undefined,
    keys.usernameKey ? { username_key: keys.usernameKey } : undefined,
  ];
  for (const lookup of lookups) {
    if (!lookup) continue;
    const contact = await repositories.contacts.findOldestOnChannel(scope, channelId, lookup);
    if (contact) return contact;
  }
  return null;
}

/** The contact fields this delivery states; absent facts never erase stored ones. */
function statedFields(sender: InboundSender, keys: SenderKeys): Partial<SenderContact> {
  return {
    ...(keys.phoneKey ? { phone: `+${keys.phoneKey}`, phone_key: keys.phoneKey } : {}),
    ...(keys.userId ? { chat_user_id: keys.userId } : {}),
    ...(keys.usernameKey ? { chat_username: sender.username!.trim().replace(/^@/, ''), username_key: keys.usernameKey } : {}),
    ...(sender.profile_name ? { profile_name: sender.profile_name } : {}),
  };
}

async function refreshContact(repositories: SenderRepositories, scope: BusinessScope, contact: SenderContact, sender: InboundSender, keys: SenderKeys, now: Date): Promise<SenderContact> {
  const stated = statedFields(sender, keys);
  const changes = Object.fromEntries(Object.entries(stated).filter(([field, value]) => contact[field as keyof SenderContact] !== value));
  if (Object.keys(changes).length === 0) return contact;
  return (await repositories.contacts.updateFields(scope, contact._id, changes, now)) ?? { ...contact, ...changes };
}

/** The new contact, with its contact.created entry when this call inserted it (a redelivery finds it inserted). */
async function createContact(
  repositories: SenderRepositories,
  scope: BusinessScope,
  channelId: string,
  sender: InboundSender,
  keys: SenderKeys,
  now: Date,
): Promise<{ contact: SenderContact; createdEvent: OutboxEntry | null }> {
  const identity = keys.phoneKey ? `phone:${keys.phoneKey}` : keys.userId ? `user:${keys.userId}` : `username:${keys.usernameKey}`;
  const id = await newSenderContactId(channelId, identity, (contactId) => repositories.contactErasures.exists(scope, contactId));
  const event = outboxEntry('contact.created', inboxIds.conversation(id), { contact: { uuid: id } }, SYSTEM_AUTHOR, now, inboxIds.contactCreatedEvent(id));
  const inserted = await repositories.contacts.insertIfAbsent(scope, {
    _id: id,
    channel_id: channelId,
    ...statedFields(sender, keys),
    acquisition_source: 'inbound_message',
    is_tester: false,
    created_at: now,
    updated_at: now,
    outbox: [event],
  });
  const contact = await repositories.contacts.findById(scope, id);
  if (!contact) throw new Error(`contact ${id} vanished right after it was created`);
  return { contact, createdEvent: inserted ? event : null };
}

/** The contact's one conversation (created for a new contact, with its conversation.created entry), its snapshot refreshed. */
async function conversationOf(
  repositories: SenderRepositories,
  scope: BusinessScope,
  channel: InboundChannel,
  contact: SenderContact,
  now: Date,
  events: OutboxRecorder,
): Promise<SenderConversation> {
  const snapshot = contactSnapshotOf(contact);
  const existing = await repositories.conversations.refreshContactSnapshot(scope, contact._id, snapshot);
  if (existing) return existing;
  const id = inboxIds.conversation(contact._id);
  const event = outboxEntry('conversation.created', id, conversationCreatedData(contact._id, snapshot, channel.public_key, false), SYSTEM_AUTHOR, now);
  // The unique (business_id, contact_id) index: a concurrent delivery may create it first.
  const created = await repositories.conversations.createIfAbsent(scope, {
    _id: id,
    contact_id: contact._id,
    contact: snapshot,
    channel_id: channel._id,
    sort_at: now,
    created_at: now,
    updated_at: now,
    outbox: [event],
  });
  if (created) await events.recordQuietly('conversations', scope, id, [event]);
  const stored = await repositories.conversations.findByContactId(scope, contact._id);
  if (!stored) throw new Error(`the conversation of contact ${contact._id} vanished right after it was created`);
  return stored;
}
