import { isTransientCloudApiError } from '@cmsg/chat-platform';
import { CatalogError, isCatalogError } from '@cmsg/errors';
import { MessageModel, businessScope, chargeVisionWallet, visionWalletBalance } from '@cmsg/dal';
import {
  type FileEntity,
  FileModel,
  type Files,
  MAX_INBOUND_MEDIA_BYTES,
  MAX_TRANSCRIBABLE_BYTES,
  canTranscribe,
  defaultFileName,
  transcriptionKindOf,
} from '@cmsg/files';
import { inboxIds } from './name-based-ids';
import type { MediaSource, MediaTranscriber } from './ports';
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
  files: Files;
  media: MediaSource;
  transcriber: MediaTranscriber;
  options: InboundMediaOptions;
}

export interface MessageWithMedia {
  _id: string;
  business_id: string;
  media: {
    provider_media_id: string;
    mime_type: string;
    file_uuid: string | null;
    file_name: string | null;
    transcription_status: string;
  };
}

/** A stored transcription is at most what a caller may supply (SPEC 8). */
const MAX_TRANSCRIPTION_CHARS = 4096;

/**
 * Inbound media (CONTRACT 7): the bytes go from the provider's media endpoint into GridFS, then
 * images are described by the vision model and audio turned into text, charged to the business
 * vision wallet. Media over 20 MB or of a type that cannot be transcribed, and any media while the
 * wallet is empty, stay awaiting transcription. Transient failures are thrown while attempts are
 * left (the command stream retries the whole, idempotent, ingest), then recorded as `failed`.
 */
export async function processInboundMedia(dependencies: InboundMediaDependencies, channel: InboundChannel, message: MessageWithMedia, attempt: number): Promise<MediaTranscriptionStatus> {
  if (message.media.transcription_status !== 'pending') return message.media.transcription_status as MediaTranscriptionStatus;
  const lastAttempt = attempt >= dependencies.options.maxAttempts;

  let file: FileEntity;
  try {
    file = await storedMediaOf(dependencies, channel, message);
  } catch (error) {
    if (isCatalogError(error) && error.code === 'FILE_TOO_LARGE') return settle(message, 'untranscribable', error.message);
    // A provider refusal (unknown media, bad token) will not change on a retry.
    const retryable = !isCatalogError(error) || isTransientCloudApiError(error);
    if (retryable && !lastAttempt) throw error;
    return settle(message, 'failed', `Fetching the media failed: ${describe(error)}`);
  }

  if (!canTranscribe(file)) {
    return settle(message, 'untranscribable', `Media of type ${file.mime_type} and ${file.size} bytes cannot be transcribed automatically.`);
  }
  const kind = transcriptionKindOf(file.mime_type)!;
  if (kind !== 'text' && (await visionWalletBalance(businessScope(message.business_id))) <= 0) {
    return settle(message, 'wallet_empty', 'The vision token wallet is empty.');
  }

  let transcription: { text: string; cost: number };
  try {
    transcription = await transcribe(dependencies, file, kind);
  } catch (error) {
    if (!lastAttempt) throw error;
    return settle(message, 'failed', `Transcribing the media failed: ${describe(error)}`);
  }

  // The first run to record the transcription keeps its text (a later repeat does not overwrite it).
  await MessageModel.updateOne(
    { _id: message._id, business_id: message.business_id, 'media.transcription_status': { $ne: 'transcribed' } },
    {
      $set: {
        transcription: transcription.text.slice(0, MAX_TRANSCRIPTION_CHARS),
        media_transcription_pending: false,
        'media.transcription_status': 'transcribed',
        'media.transcription_error': null,
      },
    },
  );
  // Once per message by its ledger key, whichever run recorded it (FerretDB's compare-and-set above
  // may let two runs "win"; a crash after it must not lose the charge).
  if (transcription.cost > 0) {
    await chargeVisionWallet(businessScope(message.business_id), transcription.cost, `transcription:${message._id}`);
  }
  return 'transcribed';
}

/** The media's file, fetched from the provider unless an earlier attempt stored it already. */
async function storedMediaOf(dependencies: InboundMediaDependencies, channel: InboundChannel, message: MessageWithMedia): Promise<FileEntity> {
  const scope = businessScope(message.business_id);
  const fileUuid = message.media.file_uuid ?? inboxIds.mediaFile(message.business_id, message.media.provider_media_id);
  let file = await FileModel.findOne({ _id: fileUuid, business_id: message.business_id }).lean<FileEntity>();
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
  await MessageModel.updateOne(
    { _id: message._id, business_id: message.business_id },
    { $set: { 'media.file_uuid': file._id, 'media.file_name': file.file_name, 'media.size': file.size } },
  );
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

async function settle(message: MessageWithMedia, status: Exclude<MediaTranscriptionStatus, 'pending' | 'transcribed'>, reason: string): Promise<MediaTranscriptionStatus> {
  await MessageModel.updateOne(
    { _id: message._id, business_id: message.business_id, 'media.transcription_status': 'pending' },
    { $set: { 'media.transcription_status': status, 'media.transcription_error': reason } },
  );
  return status;
}

function describe(error: unknown): string {
  return isCatalogError(error) ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error);
}
