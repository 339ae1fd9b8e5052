import { type ContactBulkPorts } from '@cmsg/conversations-domain';
import {
  type BusinessScope,
  ChannelRepository,
  ContactAttributeDefinitionRepository,
  ContactErasureRepository,
  type ContactEntity,
  ContactRepository,
  ConversationRepository,
  type NewConversation,
  type OutboxEntry,
  contactSnapshotOf,
} from '@cmsg/dal';
import { type BulkOutboxRecorder, type OutboxRecorder, SYSTEM_AUTHOR, conversationCreatedData, outboxEntry, withSequence } from '@cmsg/events';
import { inboxIds, newSenderContactId } from '@cmsg/inbox-ingest';
import { randomUUID } from 'node:crypto';

/** The contact use cases' ports over the data layer (built once, in main.ts). */
export function contactPorts(outbox: OutboxRecorder & BulkOutboxRecorder): ContactBulkPorts {
  const contacts = new ContactRepository();
  const channels = new ChannelRepository();
  const conversations = new ConversationRepository();
  const erasures = new ContactErasureRepository();
  return {
    contacts,
    attributeDefinitions: new ContactAttributeDefinitionRepository(),
    channels: {
      byPublicKey: async (scope, publicKey) => {
        const channel = await channels.findByPublicKey(scope, publicKey);
        return channel ? { id: String(channel._id), publicKey: channel.public_key } : null;
      },
      byIds: async (scope, ids) => (await channels.findByIds(scope, ids)).map((channel) => ({ id: String(channel._id), publicKey: channel.public_key })),
      first: async (scope, limit) => (await channels.listByName(scope, limit)).map((channel) => ({ id: String(channel._id), publicKey: channel.public_key })),
    },
    conversations: {
      ensureFor: (scope, contact, channel, now) => ensureConversation(conversations, outbox, scope, contact, channel.publicKey, channel.id, now),
      ensureManyFor: (scope, contacts, channel, now) => ensureConversations(conversations, outbox, scope, contacts, channel, now),
      idsByContactIds: (scope, contactIds) => conversations.idsByContactIds(scope, contactIds),
    },
    events: outbox,
    clock: () => new Date(),
    ids: {
      random: randomUUID,
      contactFor: (scope, channelId, identity) => newSenderContactId(channelId, identity, (contactId) => erasures.exists(scope, contactId)),
      contactsFor: async (scope, channelId, identities) => {
        const firstIds = identities.map((identity) => inboxIds.contact(channelId, identity));
        const erased = new Set((await erasures.findByIds(scope, firstIds)).map((erasure) => erasure._id));
        // An erased contact's identity takes the next id in its chain (rare: read one by one).
        return Promise.all(identities.map((identity, index) => (erased.has(firstIds[index]!) ? newSenderContactId(channelId, identity, (contactId) => erasures.exists(scope, contactId)) : firstIds[index]!)));
      },
      conversationFor: inboxIds.conversation,
    },
  };
}

/**
 * The conversations of many new contacts of one channel: those missing created in one insert
 * (each as ensureConversation creates one, its conversation.created taking sequence 1 in the
 * insert), their events recorded together; any other (one that exists, or lost a race) as
 * ensureConversation does it.
 */
async function ensureConversations(
  conversations: ConversationRepository,
  outbox: OutboxRecorder & BulkOutboxRecorder,
  scope: BusinessScope,
  contacts: readonly ContactEntity[],
  channel: { id: string; publicKey: string },
  now: Date,
): Promise<Map<string, string>> {
  const existing = await conversations.idsByContactIds(scope, contacts.map((contact) => contact._id));
  const missing = contacts.filter((contact) => !existing.has(contact._id));
  const creations = missing.map((contact) => {
    const { conversation, event } = newConversationOf(contact, channel.publicKey, channel.id, now);
    return { contact, event, conversation: { ...conversation, event_sequence: 1 } };
  });
  const created = new Set(await conversations.createManyIfAbsent(scope, creations.map(({ conversation }) => conversation)));
  const made = creations.filter(({ conversation }) => created.has(conversation._id));
  await outbox.recordManyQuietly('conversations', scope, made.map(({ conversation, event }) => ({ documentId: conversation._id, entries: [withSequence(event, conversation)] })));
  const ids = new Map(made.map(({ contact, conversation }) => [contact._id, conversation._id]));
  for (const contact of contacts.filter((candidate) => !ids.has(candidate._id))) {
    ids.set(contact._id, await ensureConversation(conversations, outbox, scope, contact, channel.publicKey, channel.id, now));
  }
  return ids;
}

/**
 * The contact's one conversation, its copy of the contact refreshed; created (resolved, no AI,
 * window closed) with its conversation.created event when missing, with the id an inbound message
 * from the contact would give it.
 */
async function ensureConversation(
  conversations: ConversationRepository,
  outbox: OutboxRecorder,
  scope: BusinessScope,
  contact: ContactEntity,
  channelKey: string,
  channelId: string,
  now: Date,
): Promise<string> {
  const existing = await conversations.refreshContactSnapshot(scope, contact._id, contactSnapshotOf(contact));
  if (existing) return existing._id;
  const { conversation, event } = newConversationOf(contact, channelKey, channelId, now);
  const created = await conversations.createIfAbsent(scope, conversation);
  if (created) await outbox.recordQuietly('conversations', scope, conversation._id, [event]);
  const stored = await conversations.findByContactId(scope, contact._id);
  if (!stored) throw new Error(`the conversation of contact ${contact._id} vanished right after it was created`);
  return stored._id;
}

/** A contact's conversation as it is created (resolved, no AI, window closed, the id an inbound message would give it), with its conversation.created entry. */
function newConversationOf(contact: ContactEntity, channelKey: string, channelId: string, now: Date): { conversation: NewConversation; event: OutboxEntry } {
  const snapshot = contactSnapshotOf(contact);
  const id = inboxIds.conversation(contact._id);
  const event = outboxEntry('conversation.created', id, conversationCreatedData(contact._id, snapshot, channelKey, contact.is_tester), SYSTEM_AUTHOR, now);
  return { conversation: { _id: id, contact_id: contact._id, contact: snapshot, channel_id: channelId, sort_at: now, created_at: now, updated_at: now, outbox: [event] }, event };
}
