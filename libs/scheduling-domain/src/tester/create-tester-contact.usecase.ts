import { CatalogError } from '@cmsg/errors';
import { type BusinessScope, contactSnapshotOf, fullName, phoneLookupKey, usernameLookupKey } from '@cmsg/dal';
import { type OutboxRecorder, SYSTEM_AUTHOR, conversationCreatedData, outboxEntry } from '@cmsg/events';
import type { Contact, TesterContact } from '@cmsg/proto';
import type { ChannelStore, Clock, ContactStore, ConversationStore, IdGenerator } from '../ports';

export interface CreateTesterContactDependencies {
  channels: ChannelStore;
  contacts: ContactStore;
  conversations: Pick<ConversationStore, 'createIfAbsent'>;
  events: OutboxRecorder;
  clock: Clock;
  ids: IdGenerator;
}

export interface CreateTesterContactInput {
  first_name?: string;
  last_name?: string;
  phone?: string;
  chat_username?: string;
  /** Channel public key; the business's first channel by name when absent. */
  channel?: string;
}

/**
 * CONTRACT 6: a tester contact and its one conversation (fictitious: sends to it are simulated,
 * its window and schedules run on the business virtual clock). Written contact first: a crash in
 * between leaves a contact without conversation, never a conversation without contact. The
 * conversation is inserted with its conversation.created entry, the contact with its
 * contact.created entry (recorded after it, as for every new contact).
 */
export async function createTesterContact(scope: BusinessScope, input: CreateTesterContactInput, dependencies: CreateTesterContactDependencies): Promise<TesterContact> {
  const { contacts, conversations, events, ids } = dependencies;
  const now = dependencies.clock.now();
  const channel = await testerChannel(dependencies.channels, scope, input.channel);
  const channelId = channel._id;
  const phoneKey = input.phone ? phoneLookupKey(input.phone) : '';
  const username = input.chat_username ? input.chat_username.trim().replace(/^@/, '') : '';
  const conversationId = ids.newId();
  const contact = {
    _id: ids.newId(),
    channel_id: channelId,
    first_name: input.first_name ?? 'Tester',
    last_name: input.last_name ?? null,
    phone: phoneKey ? `+${phoneKey}` : null,
    phone_key: phoneKey || null,
    chat_username: username || null,
    username_key: username ? usernameLookupKey(username) : null,
    acquisition_source: 'tester',
    is_tester: true,
    created_at: now,
    updated_at: now,
  };
  const contactCreated = outboxEntry('contact.created', conversationId, { contact: { uuid: contact._id } }, SYSTEM_AUTHOR, now);
  await contacts.insertIfAbsent(scope, { ...contact, outbox: [contactCreated] });
  const snapshot = contactSnapshotOf(contact);
  const created = outboxEntry('conversation.created', conversationId, conversationCreatedData(contact._id, snapshot, channel.public_key, true), SYSTEM_AUTHOR, now);
  await conversations.createIfAbsent(scope, {
    _id: conversationId,
    contact_id: contact._id,
    contact: snapshot,
    channel_id: channelId,
    inbox_status: 'resolved',
    is_tester: true,
    sort_at: now,
    created_at: now,
    updated_at: now,
    outbox: [created],
  });
  await events.recordQuietly('conversations', scope, conversationId, [created]);
  await events.recordQuietly('contacts', scope, contact._id, [contactCreated]);
  return { contact: publicContact(contact, channel.public_key, conversationId), conversation_uuid: conversationId };
}

async function testerChannel(channels: ChannelStore, scope: BusinessScope, publicKey: string | undefined): Promise<{ _id: string; public_key: string }> {
  if (publicKey !== undefined) {
    const channel = await channels.findByPublicKey(scope, publicKey);
    if (!channel) throw new CatalogError('CHANNEL_NOT_FOUND', `No channel with public key '${publicKey}' in this business.`);
    return channel;
  }
  const [first] = await channels.listByName(scope, 1);
  if (!first) throw new CatalogError('CHANNEL_NOT_FOUND', 'The business has no channel for a tester conversation.');
  return first;
}

type NewContact = { _id: string; first_name: string | null; last_name: string | null; phone: string | null; phone_key: string | null; chat_username: string | null; acquisition_source: string; created_at: Date; updated_at: Date };

function publicContact(contact: NewContact, channelKey: string, conversationId: string): Contact {
  return {
    uuid: contact._id,
    first_name: contact.first_name ?? undefined,
    middle_name: undefined,
    last_name: contact.last_name ?? undefined,
    second_last_name: undefined,
    full_name: fullName(contact),
    chat_id: contact.phone_key ?? undefined,
    chat_user_id: undefined,
    chat_username: contact.chat_username ?? undefined,
    acquisition_source: contact.acquisition_source,
    is_tester: true,
    created_at: contact.created_at.toISOString(),
    updated_at: contact.updated_at.toISOString(),
    channel: channelKey,
    phone: contact.phone ?? undefined,
    email: undefined,
    language: undefined,
    external_id: undefined,
    attributes: {},
    consent: { marketing: UNKNOWN_CONSENT, utility: UNKNOWN_CONSENT },
    conversation_uuid: conversationId,
  };
}

const UNKNOWN_CONSENT = { status: 'unknown', source: undefined, updated_at: undefined };
