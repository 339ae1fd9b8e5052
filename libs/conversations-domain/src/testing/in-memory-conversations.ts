import {
  type BusinessScope,
  type ContactEntity,
  type ContactLookupKey,
  type ConversationEntity,
  type ConversationIdentity,
  phoneLookupKey,
  storedConversationDefaults,
  usernameLookupKey,
} from '@cmsg/dal';
import type { ConversationLookup } from '../conversation/conversation-resolver';

const EPOCH = new Date('2026-11-01T00:00:00.000Z');

/** A stored conversation with the schema's defaults; `overrides` sets what a spec cares about. */
export function conversationRow(overrides: Partial<ConversationEntity> & ConversationIdentity): ConversationEntity {
  return { ...storedConversationDefaults(overrides, EPOCH), ...overrides } as ConversationEntity;
}

/** A stored contact with the lookup keys of its phone and username, and what a spec sets. */
export function contactRow(
  fields: { _id: string; business_id: string; channel_id: string; phone?: string; chat_user_id?: string; chat_username?: string } & Partial<ContactEntity>,
): ContactEntity {
  return {
    phone_key: fields.phone ? phoneLookupKey(fields.phone) : null,
    username_key: fields.chat_username ? usernameLookupKey(fields.chat_username) : null,
    chat_user_id: null,
    is_tester: false,
    revision: 0,
    ...fields,
  } as ContactEntity;
}

/**
 * The conversations, contacts and channels of every business in memory, read as their
 * repositories read them (always within the business).
 */
export class InMemoryConversationLookup implements ConversationLookup {
  readonly conversationRows: ConversationEntity[] = [];
  readonly contactRows: ContactEntity[] = [];
  /** Public key -> channel id, per business. */
  readonly channelRows: { _id: string; business_id: string; public_key: string }[] = [];

  readonly conversations = {
    findById: async (scope: BusinessScope, id: string) => this.conversationRows.find((row) => row.business_id === scope.businessId && row._id === id) ?? null,
    findByContactId: async (scope: BusinessScope, contactId: string) =>
      this.conversationRows.find((row) => row.business_id === scope.businessId && row.contact_id === contactId) ?? null,
  };

  readonly contacts = {
    findById: async (scope: BusinessScope, id: string) => this.contactRows.find((row) => row.business_id === scope.businessId && row._id === id) ?? null,
    findByLookupKey: async (scope: BusinessScope, key: ContactLookupKey, channelId: string | undefined) => {
      const [field, value] = Object.entries(key)[0] as [keyof ContactEntity, string];
      return this.contactRows
        .filter((row) => row.business_id === scope.businessId && row[field] === value && (channelId === undefined || row.channel_id === channelId))
        .slice(0, 2);
    },
  };

  readonly channels = {
    findByPublicKey: async (scope: BusinessScope, publicKey: string) => this.channelRows.find((row) => row.business_id === scope.businessId && row.public_key === publicKey) ?? null,
  };

  /** As ConversationRepository.nextEventSequence. */
  readonly sequences = {
    nextEventSequence: async (scope: BusinessScope, id: string) => {
      const row = await this.conversations.findById(scope, id);
      if (!row) return null;
      row.event_sequence += 1;
      return row.event_sequence;
    },
  };

  /** A contact on channel `channelId` with its conversation `conv-<contact>`. */
  addContactWithConversation(contact: Parameters<typeof contactRow>[0], conversation: Partial<ConversationEntity> = {}): ConversationEntity {
    this.contactRows.push(contactRow(contact));
    const row = conversationRow({ _id: `conv-${contact._id}`, business_id: contact.business_id, contact_id: contact._id, channel_id: contact.channel_id, ...conversation });
    this.conversationRows.push(row);
    return row;
  }
}
