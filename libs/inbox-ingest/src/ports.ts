import type { DescribeImageOptions, TranscriptionOptions } from '@cmsg/ai-provider';
import type { DownloadOptions, MediaDownload, MediaInfo } from '@cmsg/chat-platform';

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

/**
 * An AI run after a customer message, in the shape the actions-runner consumes from the
 * conversation-commands topic (ActionGroupCommandSchema of @cmsg/actions-domain: kind
 * action_group with one run_ai action).
 */
export interface InboundAiRunCommand {
  kind: 'action_group';
  group_uuid: string;
  business_id: string;
  token_uuid: string;
  request_id: string | null;
  conversation_uuid: string;
  source: 'run_ai';
  depth: number;
  stop_on_error: boolean;
  escalate_on_error: boolean;
  actions: [{ type: 'run_ai' }];
  created_at: string;
}

/** The per-conversation command stream (topic conversation-commands, key = conversation uuid). */
export interface AiRunQueue {
  submit(conversationUuid: string, command: InboundAiRunCommand): Promise<void>;
}

/** Publishes what a conversation's outbox holds (ConversationOutbox.flushQuietly). */
export interface ConversationEventsFlusher {
  flushQuietly(conversationId: string): Promise<void>;
}
