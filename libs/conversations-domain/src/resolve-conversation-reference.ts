import { CatalogError, type ErrorCode } from '@cmsg/errors';
import {
  type BusinessScope,
  ChannelModel,
  ContactModel,
  type ContactEntity,
  ConversationModel,
  type ConversationEntity,
  phoneLookupKey,
  scopedFilter,
  usernameLookupKey,
} from '@cmsg/dal';

export interface ConversationReference {
  uuid?: string;
  chat_user_id?: string;
  username?: string;
  phone?: string;
  channel?: string;
}

export type StoredConversation = ConversationEntity & { _id: string };
export type StoredContact = ContactEntity & { _id: string };

export interface ResolvedConversation {
  conversation: StoredConversation;
  contact: StoredContact;
}

/**
 * SPEC 2.1 / CONTRACT 2: only the highest member present in the order
 * uuid > chat_user_id > username > phone is used; lookups are always within the business and,
 * with `channel`, within that channel.
 */
export async function resolveConversationReference(scope: BusinessScope, reference: ConversationReference): Promise<ResolvedConversation> {
  const channelId = reference.channel === undefined ? undefined : await resolveChannelId(scope, reference.channel);
  const inChannel = channelId === undefined ? {} : { channel_id: channelId };

  if (reference.uuid !== undefined) {
    const conversation = await ConversationModel.findOne(scopedFilter(scope, { _id: reference.uuid, ...inChannel })).lean<StoredConversation>();
    if (!conversation) throw notFound();
    const contact = await ContactModel.findOne(scopedFilter(scope, { _id: conversation.contact_id })).lean<StoredContact>();
    if (!contact) throw notFound();
    return { conversation, contact };
  }
  if (reference.chat_user_id !== undefined) {
    return conversationOfSingleContact(scope, { chat_user_id: reference.chat_user_id, ...inChannel }, 'CHAT_USER_ID_AMBIGUOUS');
  }
  if (reference.username !== undefined) {
    const key = usernameLookupKey(reference.username);
    if (!key) throw notFound();
    return conversationOfSingleContact(scope, { username_key: key, ...inChannel }, 'USERNAME_AMBIGUOUS');
  }
  if (reference.phone !== undefined) {
    const key = phoneLookupKey(reference.phone);
    if (!key) throw notFound();
    return conversationOfSingleContact(scope, { phone_key: key, ...inChannel }, 'PHONE_NUMBER_AMBIGUOUS');
  }
  throw new CatalogError('INVALID_REQUEST', 'conversation: one of uuid, chat_user_id, username or phone is required.');
}

async function resolveChannelId(scope: BusinessScope, publicKey: string): Promise<string> {
  const channel = await ChannelModel.findOne(scopedFilter(scope, { public_key: publicKey }), { _id: 1 }).lean<{ _id: string }>();
  if (!channel) throw new CatalogError('CHANNEL_NOT_FOUND', `No channel with public key '${publicKey}' in this business.`);
  return channel._id;
}

async function conversationOfSingleContact(
  scope: BusinessScope,
  contactFilter: Record<string, unknown>,
  ambiguityCode: ErrorCode,
): Promise<ResolvedConversation> {
  // Two are enough to know it is ambiguous.
  const contacts = await ContactModel.find(scopedFilter(scope, contactFilter)).limit(2).lean<StoredContact[]>();
  if (contacts.length === 0) throw notFound();
  if (contacts.length > 1) throw new CatalogError(ambiguityCode);
  const contact = contacts[0]!;
  const conversation = await ConversationModel.findOne(scopedFilter(scope, { contact_id: contact._id })).lean<StoredConversation>();
  if (!conversation) throw notFound();
  return { conversation, contact };
}

function notFound(): CatalogError {
  return new CatalogError('CONVERSATION_NOT_FOUND');
}
