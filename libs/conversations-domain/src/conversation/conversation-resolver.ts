import { CatalogError, type ErrorCode } from '@cmsg/errors';
import { type BusinessScope, type ContactEntity, type ContactLookupKey, type ConversationEntity, phoneLookupKey, usernameLookupKey } from '@cmsg/dal';

export interface ConversationReference {
  uuid?: string;
  chat_user_id?: string;
  username?: string;
  phone?: string;
  channel?: string;
}

export type StoredConversation = ConversationEntity;
export type StoredContact = ContactEntity;

export interface ResolvedConversation {
  conversation: StoredConversation;
  contact: StoredContact;
}

/** The conversations by id, the contact's one conversation (ConversationRepository). */
export interface ConversationFinder {
  findById(scope: BusinessScope, id: string): Promise<StoredConversation | null>;
  findByContactId(scope: BusinessScope, contactId: string): Promise<StoredConversation | null>;
}

/** What resolving a conversation reference reads (ConversationRepository, ContactRepository, ChannelRepository in the app). */
export interface ConversationLookup {
  conversations: ConversationFinder;
  contacts: {
    findById(scope: BusinessScope, id: string): Promise<StoredContact | null>;
    /** At most two: enough to know a key is ambiguous. */
    findByLookupKey(scope: BusinessScope, key: ContactLookupKey, channelId: string | undefined): Promise<StoredContact[]>;
  };
  channels: { findByPublicKey(scope: BusinessScope, publicKey: string): Promise<{ _id: string } | null> };
}

/**
 * SPEC 2.1 / CONTRACT 2: only the highest member present in the order
 * uuid > chat_user_id > username > phone is used; lookups are always within the business and,
 * with `channel`, within that channel.
 */
export async function resolveConversationReference(lookup: ConversationLookup, scope: BusinessScope, reference: ConversationReference): Promise<ResolvedConversation> {
  if (reference.uuid !== undefined) {
    const conversation = await resolveConversation(lookup, scope, reference);
    const contact = await lookup.contacts.findById(scope, conversation.contact_id);
    if (!contact) throw notFound();
    return { conversation, contact };
  }
  const channelId = reference.channel === undefined ? undefined : await resolveChannelId(lookup, scope, reference.channel);
  if (reference.chat_user_id !== undefined) {
    return conversationOfSingleContact(lookup, scope, { chat_user_id: reference.chat_user_id }, channelId, 'CHAT_USER_ID_AMBIGUOUS');
  }
  if (reference.username !== undefined) {
    const key = usernameLookupKey(reference.username);
    if (!key) throw notFound();
    return conversationOfSingleContact(lookup, scope, { username_key: key }, channelId, 'USERNAME_AMBIGUOUS');
  }
  if (reference.phone !== undefined) {
    const key = phoneLookupKey(reference.phone);
    if (!key) throw notFound();
    return conversationOfSingleContact(lookup, scope, { phone_key: key }, channelId, 'PHONE_NUMBER_AMBIGUOUS');
  }
  throw new CatalogError('INVALID_REQUEST', 'conversation: one of uuid, chat_user_id, username or phone is required.');
}

/**
 * The conversation a reference names, for a change that does not need its contact: by uuid it is
 * one read (every conversation keeps its contact, which is never deleted); the other members find
 * the contact first, as resolveConversationReference does.
 */
export async function resolveConversation(lookup: ConversationLookup, scope: BusinessScope, reference: ConversationReference): Promise<StoredConversation> {
  if (reference.uuid === undefined) return (await resolveConversationReference(lookup, scope, reference)).conversation;
  const channelId = reference.channel === undefined ? undefined : await resolveChannelId(lookup, scope, reference.channel);
  const conversation = await lookup.conversations.findById(scope, reference.uuid);
  if (!conversation || (channelId !== undefined && conversation.channel_id !== channelId)) throw notFound();
  return conversation;
}

/** ResolveConversation: the uuid a reference names, in as few reads as resolveConversation needs. */
export async function resolveConversationUuid(lookup: ConversationLookup, scope: BusinessScope, reference: ConversationReference): Promise<string> {
  return (await resolveConversation(lookup, scope, reference))._id;
}

/** The conversation as stored now (a change that lost to another one reads it again). */
export async function reloadConversation(conversations: ConversationFinder, scope: BusinessScope, conversationId: string): Promise<StoredConversation> {
  const conversation = await conversations.findById(scope, conversationId);
  if (!conversation) throw notFound();
  return conversation;
}

async function resolveChannelId(lookup: ConversationLookup, scope: BusinessScope, publicKey: string): Promise<string> {
  const channel = await lookup.channels.findByPublicKey(scope, publicKey);
  if (!channel) throw new CatalogError('CHANNEL_NOT_FOUND', `No channel with public key '${publicKey}' in this business.`);
  return channel._id;
}

async function conversationOfSingleContact(
  lookup: ConversationLookup,
  scope: BusinessScope,
  key: ContactLookupKey,
  channelId: string | undefined,
  ambiguityCode: ErrorCode,
): Promise<ResolvedConversation> {
  const contacts = await lookup.contacts.findByLookupKey(scope, key, channelId);
  if (contacts.length === 0) throw notFound();
  if (contacts.length > 1) throw new CatalogError(ambiguityCode);
  const contact = contacts[0]!;
  const conversation = await lookup.conversations.findByContactId(scope, contact._id);
  if (!conversation) throw notFound();
  return { conversation, contact };
}

function notFound(): CatalogError {
  return new CatalogError('CONVERSATION_NOT_FOUND');
}
