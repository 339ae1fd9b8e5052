import type { BusinessScope } from '@cmsg/dal';

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

/** The contacts an audience names (the contact filter language of libs/contact-filter in the apps). */
export interface AudiencePorts {
  /** Throws INVALID_REQUEST naming the problem (CONTRACT 10.1's filter rules). */
  validateFilter(scope: BusinessScope, filter: unknown): Promise<void>;
  /** Contacts of the channel the filter matches, in _id order after `afterId`. */
  contactsMatching(scope: BusinessScope, filter: unknown, channelId: string, afterId: string | null, limit: number): Promise<AudienceContact[]>;
  /** The contacts of these ids (absent ones are left out). */
  contactsByIds(scope: BusinessScope, ids: readonly string[]): Promise<AudienceContact[]>;
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
