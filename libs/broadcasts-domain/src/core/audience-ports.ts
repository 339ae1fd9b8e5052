import type { BusinessScope } from '@cmsg/dal';
import type { AudienceByteSource } from '../audience-file';

/** One contact as freezing reads it. */
export interface AudienceContact {
  id: string;
  channel_id: string;
  phone: string | null;
  chat_user_id: string | null;
  conversation_id: string | null;
  first_name: string | null;
  last_name: string | null;
  attributes: Record<string, unknown>;
  consent: { marketing: string; utility: string };
}

/** A stored file as a file audience checks it (libs/files in the apps). */
export interface AudienceFileInfo {
  id: string;
  /** The upload's module: an audience file is one of `broadcast_audiences`. */
  module: string;
  /** pending | confirmed | expired: only a confirmed file is read. */
  status: string;
  /** Normalised: text/csv or application/x-ndjson for an audience file. */
  mime_type: string;
  size: number;
}

/**
 * The contacts an audience names: the contact filter language of libs/contact-filter, the contacts
 * collection, and for file audiences the file store and the contact upsert of POST /contacts.
 */
export interface AudiencePorts {
  /** Throws INVALID_REQUEST naming the problem (CONTRACT 10.1's filter rules). */
  validateFilter(scope: BusinessScope, filter: unknown): Promise<void>;
  /** Contacts of the channel the filter matches, in _id order after `afterId`. */
  contactsMatching(scope: BusinessScope, filter: unknown, channelId: string, afterId: string | null, limit: number): Promise<AudienceContact[]>;
  /** The contacts of these ids (absent ones are left out). */
  contactsByIds(scope: BusinessScope, ids: readonly string[]): Promise<AudienceContact[]>;
  /** The business's file of this id, whatever its module and status; null when there is none. */
  fileInfo(scope: BusinessScope, fileId: string): Promise<AudienceFileInfo | null>;
  /**
   * A confirmed file's bytes from byte `startOffset` on (at most its size), streamed: the store skips
   * to the offset without reading what comes before it. Leaving the iteration early closes the read.
   */
  openFile(scope: BusinessScope, fileId: string, startOffset: number): AudienceByteSource;
  /**
   * The contact of a file row's phone, upserted as POST /contacts does with only `phone` and the
   * channel: matched by its digits within the channel (nothing written to it then), else created with
   * its conversation. `invalid_phone` when POST /contacts would refuse the phone. Idempotent: the same
   * phone again answers the same contact, so a batch frozen again after a crash gives the same recipients.
   */
  upsertByPhone(scope: BusinessScope, channelId: string, phone: string): Promise<AudienceContact | 'invalid_phone'>;
  /**
   * upsertByPhone for many phones that no contact of the channel had at the lookup (a batch's new
   * phones), created together in a few writes; by phone key. A phone left out (not 8 to 15 digits)
   * is the caller's to upsert on its own.
   */
  createByPhones(scope: BusinessScope, channelId: string, phones: readonly string[]): Promise<Map<string, AudienceContact>>;
  /**
   * The existing contacts of the channel with these phone digits (at most 100 keys), by key, with
   * their conversations: the one an upsert would match (the oldest). A preview reads them without
   * creating anything; a freeze batch upserts only the phones none of them has.
   */
  contactsByPhoneKeys(scope: BusinessScope, channelId: string, phoneKeys: readonly string[]): Promise<Map<string, AudienceContact>>;
}

export interface BroadcastChannel {
  id: string;
  public_key: string;
  max_messages_per_second: number;
  messaging_limit: number | null;
}

export interface BroadcastTemplateInfo {
  uuid: string;
  name: string;
  language: string;
  category: string;
  status: string;
  channel_id: string;
}

/** What creating a broadcast looks up. */
export interface DefinitionPorts {
  channelByPublicKey(scope: BusinessScope, publicKey: string): Promise<BroadcastChannel | null>;
  channelById(scope: BusinessScope, id: string): Promise<BroadcastChannel | null>;
  /** By uuid, or by name and language on the channel. */
  template(scope: BusinessScope, channelId: string, reference: { uuid?: string; name?: string; language?: string }): Promise<BroadcastTemplateInfo | null>;
  businessTimeZone(scope: BusinessScope): Promise<string>;
  /** Messaging-limit units left on the channel now (null: unlimited). */
  messagingLimitRemaining(scope: BusinessScope, channel: BroadcastChannel): Promise<number | null>;
}
