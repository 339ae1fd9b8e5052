import type { BusinessScope, ContactEntity, ContactListFilter, NewContact, OutboxEntry, StoredAttributeDefinition } from '@cmsg/dal';
import type { BulkOutboxRecorder, OutboxRecorder } from '@cmsg/events';

type Fields = Record<string, unknown>;

/** The contacts collection as the contact use cases read and write it (ContactRepository). */
export interface ContactStore {
  findById(scope: BusinessScope, id: string): Promise<ContactEntity | null>;
  findByExternalId(scope: BusinessScope, externalId: string): Promise<ContactEntity | null>;
  /** The oldest contact of the channel holding the key. */
  findOldestOnChannel(scope: BusinessScope, channelId: string, key: { phone_key: string } | { chat_user_id: string }): Promise<ContactEntity | null>;
  insertNew(scope: BusinessScope, contact: NewContact): Promise<'inserted' | 'id_taken' | 'external_id_taken'>;
  updateAtRevision(
    scope: BusinessScope,
    id: string,
    revision: number,
    change: { set: Fields; unset: readonly string[]; outbox: readonly OutboxEntry[] },
  ): Promise<{ outcome: 'updated'; contact: ContactEntity } | { outcome: 'stale' | 'external_id_taken' }>;
  searchPage(scope: BusinessScope, page: { filter: Fields; after: Fields; limit: number }): Promise<ContactEntity[]>;
  listPage(scope: BusinessScope, page: ContactListFilter & { after: Fields; limit: number }): Promise<ContactEntity[]>;
}

/** The business's attribute definitions (ContactAttributeDefinitionRepository). */
export interface AttributeDefinitionStore {
  list(scope: BusinessScope): Promise<StoredAttributeDefinition[]>;
  define(scope: BusinessScope, definition: StoredAttributeDefinition, limit: number): Promise<'defined' | 'already_defined' | 'limit_reached' | 'no_business'>;
  remove(scope: BusinessScope, key: string): Promise<boolean>;
}

export interface ContactChannel {
  id: string;
  publicKey: string;
}

/** The business's channels, by public key and by id (ChannelRepository). */
export interface ChannelDirectory {
  byPublicKey(scope: BusinessScope, publicKey: string): Promise<ContactChannel | null>;
  byIds(scope: BusinessScope, ids: readonly string[]): Promise<ContactChannel[]>;
  /** Every channel of the business, at most `limit`: a contact may omit `channel` when there is one. */
  first(scope: BusinessScope, limit: number): Promise<ContactChannel[]>;
}

/** The contact's one conversation (ConversationRepository and the conversation.created event). */
export interface ContactConversations {
  /** Creates it (resolved, no AI, window closed) unless it exists, refreshes its copy of the contact, answers its id. */
  ensureFor(scope: BusinessScope, contact: ContactEntity, channel: ContactChannel, now: Date): Promise<string>;
  idsByContactIds(scope: BusinessScope, contactIds: readonly string[]): Promise<Map<string, string>>;
}

/**
 * Ids: a contact created from a phone or platform id gets the id an inbound message from that
 * sender would give it (libs/inbox-ingest name-based ids), so the API and the webhook converge on
 * one contact and one conversation.
 */
export interface ContactIds {
  random(): string;
  /** The id a sender's new contact takes (never the id of an erased contact). */
  contactFor(scope: BusinessScope, channelId: string, identity: string): Promise<string>;
  conversationFor(contactId: string): string;
}

/** Everything the contact use cases need, built once in the app's composition root. */
export interface ContactPorts {
  contacts: ContactStore;
  attributeDefinitions: AttributeDefinitionStore;
  channels: ChannelDirectory;
  conversations: ContactConversations;
  events: OutboxRecorder;
  clock: () => Date;
  ids: ContactIds;
}

/** ContactPorts with the bulk writes of many new contacts at once (an audience file's new phones). */
export interface ContactBulkPorts extends ContactPorts {
  contacts: ContactStore & {
    /** Many at once, each as insertNew: answers the ids inserted (one whose id or unique key is taken is left out). */
    insertManyNew(scope: BusinessScope, contacts: readonly NewContact[]): Promise<string[]>;
    findByIds(scope: BusinessScope, ids: readonly string[]): Promise<ContactEntity[]>;
  };
  conversations: ContactConversations & {
    /** ensureFor for many contacts of one channel: the missing conversations created in one write, their events recorded together. Contact id -> conversation id. */
    ensureManyFor(scope: BusinessScope, contacts: readonly ContactEntity[], channel: ContactChannel, now: Date): Promise<Map<string, string>>;
  };
  events: OutboxRecorder & BulkOutboxRecorder;
  ids: ContactIds & {
    /** contactFor for many identities of one channel, in their order. */
    contactsFor(scope: BusinessScope, channelId: string, identities: readonly string[]): Promise<string[]>;
  };
}

/** What reading contacts needs (search, lists, views): no writes, no events. */
export interface ContactReadPorts {
  contacts: Pick<ContactStore, 'searchPage' | 'listPage' | 'findById'>;
  attributeDefinitions: Pick<AttributeDefinitionStore, 'list'>;
  channels: Pick<ChannelDirectory, 'byIds'>;
  conversations: Pick<ContactConversations, 'idsByContactIds'>;
}
