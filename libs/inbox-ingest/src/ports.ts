import type {
  BusinessRepository,
  BusinessScope,
  ChannelRepository,
  ContactErasureRepository,
  ContactRepository,
  ConversationRepository,
  FileRepository,
  MessageRepository,
  OutboxAuthor,
} from '@cmsg/dal';
import type { Files } from '@cmsg/files';
import type { DescribeImageOptions, TranscriptionOptions } from '@cmsg/ai-provider';
import type { DownloadOptions, MediaDownload, MediaInfo } from '@cmsg/chat-platform';
import type { AiRunCommand } from '@cmsg/conversation-commands';

/** The chat platform's media endpoints (CloudApiClient). */
export interface MediaSource {
  getMediaUrl(mediaId: string, accessToken: string): Promise<MediaInfo>;
  downloadMedia(url: string, accessToken: string, options?: DownloadOptions): Promise<MediaDownload>;
}

/** The OpenAI-compatible API's media calls (AiProvider). */
export interface MediaTranscriber {
  describeImage(imageUrl: string, model: string, options?: DescribeImageOptions): Promise<{ text: string; usage: { total_tokens: number } }>;
  transcribeAudio(audio: Buffer, fileName: string, mimeType: string, options?: TranscriptionOptions): Promise<{ text: string }>;
}

/** The per-conversation command stream (topic conversation-commands, key = conversation uuid). */
export interface AiRunQueue {
  submit(conversationUuid: string, command: AiRunCommand): Promise<void>;
}

/** Consent the customer (a keyword) or the provider (a late 131050 failure, a user preference) stated. */
export interface KeywordConsent {
  contactId: string;
  /** Null when the contact has no conversation yet (a user preference may come before any message). */
  conversationId: string | null;
  consent: { marketing?: 'opted_in' | 'opted_out'; utility?: 'opted_in' | 'opted_out' };
  source: 'keyword' | 'provider';
  author: OutboxAuthor;
}

/** Records consent a keyword or the provider stated (the conversations service's contact writer). */
export type RecordConsent = (scope: BusinessScope, update: KeywordConsent) => Promise<void>;

/** Broadcast recipients moved forward by what their message's customer and provider report (CONTRACT 10.4). */
export interface BroadcastProgress {
  /** A delivery status of a sent message: its recipient, if any, becomes delivered or read. */
  delivered(scope: BusinessScope, messageId: string, status: 'delivered' | 'read'): Promise<void>;
  /** A customer message: recipients of its conversation sent since `since` become replied. */
  replied(scope: BusinessScope, conversationId: string, since: Date): Promise<void>;
}

/**
 * The collections ingestion reads and writes, each narrowed to the methods it calls (the
 * repositories of @cmsg/dal in the app, in-memory ones in the specs).
 */
export interface InboxRepositories {
  businesses: Pick<BusinessRepository, 'findById' | 'chargeVisionWallet'>;
  channels: Pick<ChannelRepository, 'findByPhoneNumberIdAcrossBusinesses'>;
  contacts: Pick<ContactRepository, 'findOldestOnChannel' | 'findById' | 'insertIfAbsent' | 'updateFields'>;
  contactErasures: Pick<ContactErasureRepository, 'exists'>;
  conversations: Pick<
    ConversationRepository,
    'findById' | 'findByContactId' | 'refreshContactSnapshot' | 'createIfAbsent' | 'applyInboundMessage' | 'showLastMessage' | 'releaseAwaitingMedia'
  >;
  messages: Pick<
    MessageRepository,
    | 'findById'
    | 'findByIds'
    | 'insertIfAbsent'
    | 'markIngested'
    | 'findOutboundByProviderId'
    | 'applyDeliveryStatus'
    | 'setMediaFile'
    | 'recordTranscription'
    | 'settleUntranscribed'
    | 'reopenTranscription'
  >;
  files: Pick<FileRepository, 'findById'>;
}

/** Where inbound media is kept and read back (Files of @cmsg/files). */
export type InboundMediaFiles = Pick<Files, 'storeInboundMedia' | 'readContent'>;

/** An outbound message's author as its events name it (messageAuthorOf of @cmsg/events). */
export type MessageAuthorLookup = (scope: BusinessScope, author: { type: string; uuid?: string | null; name?: string | null } | null | undefined) => Promise<OutboxAuthor>;
