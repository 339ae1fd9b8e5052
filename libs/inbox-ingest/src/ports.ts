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
