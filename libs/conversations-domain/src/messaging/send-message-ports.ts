import type { BusinessScope, ChannelEntity, ConversationEntity, LastMessage, MessageEntity, NewMessage, OutboxEntry, PaymentEntity, StoredError } from '@cmsg/dal';
import type { OutboxAuthor } from '@cmsg/dal';
import type { BusinessDirectory } from '../conversation/business-clock';
import type { ConversationLookup } from '../conversation/conversation-resolver';
import type { TemplateDefinition } from './template-send';

/** The outbound messages of a business and their conditional settles (MessageRepository). */
export interface OutboundMessages {
  findOutbound(scope: BusinessScope, id: string): Promise<MessageEntity | null>;
  /** False when a message with this id exists already. */
  insertIfAbsent(scope: BusinessScope, message: NewMessage): Promise<boolean>;
  /** -> sent with the entry, unconditionally (the provider accepted it); null when there is no such message. */
  markSent(scope: BusinessScope, id: string, providerMessageId: string, event: OutboxEntry): Promise<MessageEntity | null>;
  /** sending -> failed with the entry; false when it was not sending. */
  markFailedIfSending(scope: BusinessScope, id: string, error: StoredError, event: OutboxEntry): Promise<boolean>;
  deleteIfSending(scope: BusinessScope, id: string): Promise<void>;
}

/** How a conversation shows its last message (ConversationRepository). */
export interface ConversationLastMessages {
  findById(scope: BusinessScope, id: string): Promise<ConversationEntity | null>;
  /** Unless a newer message is shown already. */
  showLastMessage(scope: BusinessScope, id: string, message: LastMessage, now: Date): Promise<void>;
  /** As showLastMessage, taking the next event sequence; null when a newer message is shown already. */
  showLastMessageTakingSequence(scope: BusinessScope, id: string, message: LastMessage, now: Date): Promise<Pick<ConversationEntity, 'event_sequence'> | null>;
}

/** An outbound message's author as its events name it (messageAuthors of @cmsg/events). */
export type MessageAuthorLookup = (scope: BusinessScope, author: { type: string; uuid?: string | null; name?: string | null } | null | undefined) => Promise<OutboxAuthor>;

/** Where the sends are recorded: the messages, their conversations, the names of their authors. */
export interface OutboundMessagePorts {
  messages: OutboundMessages;
  conversationMessages: ConversationLastMessages;
  authors: MessageAuthorLookup;
}

export interface StoredQuickReply {
  _id: string;
  name: string;
  actions: { text: string }[];
}

export type StoredTemplate = TemplateDefinition & { _id: string; channel_id: string };

/** What a send's content is resolved from: templates, quick replies, the payments its markers name and the business's payment profile. */
export interface MessageContentSources {
  templates: {
    findById(scope: BusinessScope, id: string): Promise<StoredTemplate | null>;
    findByNameAndLanguage(scope: BusinessScope, name: string, language: string): Promise<StoredTemplate[]>;
  };
  quickReplies: {
    findById(scope: BusinessScope, id: string): Promise<StoredQuickReply | null>;
    /** At most two: enough to know a name is ambiguous. */
    findByNameKey(scope: BusinessScope, nameKey: string): Promise<StoredQuickReply[]>;
  };
  payments: {
    findById(scope: BusinessScope, id: string): Promise<PaymentEntity | null>;
    findLatestOpenOfConversation(scope: BusinessScope, conversationId: string): Promise<PaymentEntity | null>;
  };
  businesses: BusinessDirectory;
}

/** The stored side of SendMessage, built once in the app's composition root. */
export interface SendMessagePorts extends OutboundMessagePorts, MessageContentSources {
  lookup: ConversationLookup;
  /** The channel a conversation sends on, with its credentials and limits (ChannelRepository). */
  channels: { findById(scope: BusinessScope, id: string): Promise<ChannelEntity | null> };
}
