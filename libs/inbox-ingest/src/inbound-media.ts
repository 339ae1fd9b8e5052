import { isTransientCloudApiError } from '@cmsg/chat-platform';
import { CatalogError, isCatalogError } from '@cmsg/errors';
import { type BusinessScope, type FileEntity, type MessageEntity, type UntranscribedMediaStatus, businessScope } from '@cmsg/dal';
import {
  MAX_INBOUND_MEDIA_BYTES,
  MAX_TRANSCRIBABLE_BYTES,
  canTranscribe,
  defaultFileName,
  transcriptionKindOf,
} from '@cmsg/files';
import { inboxIds } from './name-based-ids';
import type { InboxRepositories, InboundMediaFiles, MediaSource, MediaTranscriber } from './ports';
import type { InboundChannel } from './sender-conversation';

/** How the transcription of an inbound media went; every outcome but `transcribed` leaves it awaiting. */
export type MediaTranscriptionStatus = 'pending' | 'transcribed' | 'untranscribable' | 'wallet_empty' | 'failed';

export interface InboundMediaOptions {
  /** The vision model describing images (charged by the tokens it reports). */
  visionModel: string;
  /** Vision wallet tokens one speech-to-text call costs: that API reports no token usage. */
  speechTranscriptionCost: number;
  /** Ingest attempts after which a failing download or AI call leaves the media untranscribed. */
  maxAttempts: number;
}

export interface InboundMediaDependencies {
  repositories: Pick<InboxRepositories, 'businesses' | 'conversations' | 'files' | 'messages'>;
  files: InboundMediaFiles;
  media: MediaSource;
  transcriber: MediaTranscriber;
  options: InboundMediaOptions;
}

/** An inbound message that came with media. */
export type MessageWithMedia = MessageEntity & { media: NonNullable<MessageEntity['media']> };

export function hasMedia(message: MessageEntity): message is MessageWithMedia {
  return Boolean(message.media);
}

/** A stored transcription is at most what a caller may supply (SPEC 8). */
const MAX_TRANSCRIPTION_CHARS = 4096;

/**
 * Inbound media (CONTRACT 7): the bytes go from the provider's media endpoint into GridFS, then
 * images are described by the vision model and audio turned into text, charged to the business
 * vision wallet. Media over 20 MB or of a type that cannot be transcribed, and any media while the
 * wallet is empty, stay awaiting transcription. Transient failures are thrown while attempts are
 * left (the command stream retries the whole, idempotent, ingest), then recorded as `failed`. A
 * transcribed media no longer counts as awaiting on its conversation.
 */
export async function processInboundMedia(dependencies: InboundMediaDependencies, channel: InboundChannel, message: MessageWithMedia, attempt: number): Promise<MediaTranscriptionStatus> {
  const scope = businessScope(message.business_id);
  const outcome = await transcriptionOutcome(dependencies, channel, scope, message, attempt);
  // Also on a repeat: a crash after the transcription was recorded must not leave it counted.
  if (outcome === 'transcribed') await dependencies.repositories.conversations.releaseAwaitingMedia(scope, message.conversation_id, message._id);
  return outcome;
}

async function transcriptionOutcome(
  dependencies: InboundMediaDependencies,
  channel: InboundChannel,
  scope: BusinessScope,
  message: MessageWithMedia,
  attempt: number,
): Promise<MediaTranscriptionStatus> {
  if (message.media.transcription_status !== 'pending') return message.media.transcription_status as MediaTranscriptionStatus;
  const lastAttempt = attempt >= dependencies.options.maxAttempts;

  let file: FileEntity;
  try {
    file = await storedMediaOf(dependencies, channel, scope, message);
  } catch (error) {
    if (isCatalogError(error) && error.code === 'FILE_TOO_LARGE') return settle(dependencies, scope, message, 'untranscribable', error.message);
    // A provider refusal (unknown media, bad token) will not change on a retry.
    const retryable = !isCatalogError(error) || isTransientCloudApiError(error);
    if (retryable && !lastAttempt) throw error;
    return settle(dependencies, scope, message, 'failed', `Fetching the media failed: ${describe(error)}`);
  }

  if (!canTranscribe(file)) {
    return settle(dependencies, scope, message, 'untranscribable', `Media of type ${file.mime_type} and ${file.size} bytes cannot be transcribed automatically.`);
  }
  const kind = transcriptionKindOf(file.mime_type)!;
  if (kind !== 'text' && ((await dependencies.repositories.businesses.findById(scope))?.vision_wallet_tokens ?? 0) <= 0) {
    return settle(dependencies, scope, message, 'wallet_empty', 'The vision token wallet is empty.');
  }

  let transcription: { text: string; cost: number };
  try {
    transcription = await transcribe(dependencies, file, kind);
  } catch (error) {
    if (!lastAttempt) throw error;
    return settle(dependencies, scope, message, 'failed', `Transcribing the media failed: ${describe(error)}`);
  }

  // The first run to record the transcription keeps its text (a later repeat does not overwrite it).
  await dependencies.repositories.messages.recordTranscription(scope, message._id, transcription.text.slice(0, MAX_TRANSCRIPTION_CHARS));
  // Once per message by its operation id, whichever run recorded it: a run that crashed after
  // recording the text and before charging is charged by its retry.
  if (transcription.cost > 0) {
    await dependencies.repositories.businesses.chargeVisionWallet(scope, { tokens: transcription.cost, operationId: `transcription:${message._id}` });
  }
  return 'transcribed';
}

/** The media's file, fetched from the provider unless an earlier attempt stored it already. */
async function storedMediaOf(dependencies: InboundMediaDependencies, channel: InboundChannel, scope: BusinessScope, message: MessageWithMedia): Promise<FileEntity> {
  const fileUuid = message.media.file_uuid ?? inboxIds.mediaFile(message.business_id, message.media.provider_media_id);
  let file = await dependencies.repositories.files.findById(scope, fileUuid);
  if (!file) {
    const info = await dependencies.media.getMediaUrl(message.media.provider_media_id, channel.access_token);
    if (info.file_size !== undefined && info.file_size > MAX_INBOUND_MEDIA_BYTES) {
      throw new CatalogError('FILE_TOO_LARGE', `The media has ${info.file_size} bytes; at most ${MAX_INBOUND_MEDIA_BYTES} are kept.`);
    }
    const download = await dependencies.media.downloadMedia(info.url, channel.access_token, { maxBytes: MAX_INBOUND_MEDIA_BYTES });
    file = await dependencies.files.storeInboundMedia(scope, {
      fileUuid,
      messageId: message._id,
      mimeType: message.media.mime_type,
      fileName: message.media.file_name ?? defaultFileName(`media-${message._id.slice(0, 8)}`, message.media.mime_type),
      content: download.stream,
    });
  }
  await dependencies.repositories.messages.setMediaFile(scope, message._id, { uuid: file._id, name: file.file_name, size: file.size });
  return file;
}

async function transcribe(dependencies: InboundMediaDependencies, file: FileEntity, kind: 'vision' | 'speech' | 'text'): Promise<{ text: string; cost: number }> {
  const { files, transcriber, options } = dependencies;
  if (kind === 'text') {
    const bytes = await files.readContent(file, MAX_TRANSCRIPTION_CHARS * 4);
    return { text: bytes.toString('utf8').trim(), cost: 0 };
  }
  const bytes = await files.readContent(file, MAX_TRANSCRIBABLE_BYTES);
  if (kind === 'vision') {
    const described = await transcriber.describeImage(`data:${file.mime_type};base64,${bytes.toString('base64')}`, options.visionModel);
    return { text: described.text, cost: Math.max(0, Math.ceil(described.usage.total_tokens)) };
  }
  const spoken = await transcriber.transcribeAudio(bytes, file.file_name, file.mime_type);
  return { text: spoken.text, cost: options.speechTranscriptionCost };
}

async function settle(dependencies: Pick<InboundMediaDependencies, 'repositories'>, scope: BusinessScope, message: MessageWithMedia, status: UntranscribedMediaStatus, reason: string): Promise<MediaTranscriptionStatus> {
  await dependencies.repositories.messages.settleUntranscribed(scope, message._id, status, reason);
  return status;
}

function describe(error: unknown): string {
  return isCatalogError(error) ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error);
}
