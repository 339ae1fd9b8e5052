import { type ContactPorts } from '@cmsg/conversations-domain';
import {
  type BusinessScope,
  ChannelRepository,
  ContactAttributeDefinitionRepository,
  ContactErasureRepository,
  type ContactEntity,
  ContactRepository,
  ConversationRepository,
  contactSnapshotOf,
} from '@cmsg/dal';
import { type OutboxRecorder, SYSTEM_AUTHOR, conversationCreatedData, outboxEntry } from '@cmsg/events';
import { inboxIds, newSenderContactId } from '@cmsg/inbox-ingest';
import { randomUUID } from 'node:crypto';

/** The contact use cases' ports over the data layer (built once, in main.ts). */
export function contactPorts(outbox: OutboxRecorder): ContactPorts {
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
      idsByContactIds: (scope, contactIds) => conversations.idsByContactIds(scope, contactIds),
    },
    events: outbox,
    clock: () => new Date(),
    ids: {
      random: randomUUID,
      contactFor: (scope, channelId, identity) => newSenderContactId(channelId, identity, (contactId) => erasures.exists(scope, contactId)),
      conversationFor: inboxIds.conversation,
    },
  };
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
  const snapshot = contactSnapshotOf(contact);
  const existing = await conversations.refreshContactSnapshot(scope, contact._id, snapshot);
  if (existing) return existing._id;
  const id = inboxIds.conversation(contact._id);
  const event = outboxEntry('conversation.created', id, conversationCreatedData(contact._id, snapshot, channelKey, contact.is_tester), SYSTEM_AUTHOR, now);
  const created = await conversations.createIfAbsent(scope, { _id: id, contact_id: contact._id, contact: snapshot, channel_id: channelId, sort_at: now, created_at: now, updated_at: now, outbox: [event] });
  if (created) await outbox.recordQuietly('conversations', scope, id, [event]);
  const stored = await conversations.findByContactId(scope, contact._id);
  if (!stored) throw new Error(`the conversation of contact ${contact._id} vanished right after it was created`);
  return stored._id;
}
