import { CatalogError } from '@cmsg/errors';
import { normalizeMimeType } from './file-types';

/** SPEC 8: media over this size needs a supplied transcription. */
export const MAX_TRANSCRIBABLE_BYTES = 20 * 1024 * 1024;

/**
 * The media the service can turn into text itself: images through the vision model, audio in the
 * formats OpenAI-compatible speech-to-text accepts (mp3, m4a/mp4, ogg), and plain text. Video,
 * documents, AAC (ADTS) and AMR audio cannot be transcribed here.
 */
export const TRANSCRIBABLE_MIME_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/webp', 'audio/mpeg', 'audio/mp4', 'audio/ogg', 'text/plain']);

export type TranscriptionKind = 'vision' | 'speech' | 'text';

/** How a medium of this type would be transcribed, when it can be. */
export function transcriptionKindOf(mimeType: string): TranscriptionKind | undefined {
  const normalized = normalizeMimeType(mimeType);
  if (!TRANSCRIBABLE_MIME_TYPES.has(normalized)) return undefined;
  if (normalized.startsWith('image/')) return 'vision';
  if (normalized.startsWith('audio/')) return 'speech';
  return 'text';
}

export interface MediaFacts {
  mime_type: string;
  size: number;
}

/** Whether the service can transcribe this medium itself (supported type, at most 20 MB). */
export function canTranscribe(media: MediaFacts): boolean {
  return transcriptionKindOf(media.mime_type) !== undefined && media.size <= MAX_TRANSCRIBABLE_BYTES;
}

/** Where a supplied transcription is missing: a message's media or a template's media header. */
export type TranscriptionSlot = 'message_media' | 'template_header';

/**
 * SPEC 4.3 rule 7 and 8: media that cannot be transcribed (unsupported type or over 20 MB) is only
 * sent with a transcription supplied by the caller: TRANSCRIPTION_REQUIRED for a message's media,
 * TEMPLATE_HEADER_TRANSCRIPTION_MISSING for a template media header. A blank transcription counts
 * as none. Transcribable media needs none (it becomes mandatory in 0.3.0).
 */
export function assertTranscriptionSupplied(media: MediaFacts, transcription: string | null | undefined, slot: TranscriptionSlot): void {
  if (canTranscribe(media) || (transcription ?? '').trim() !== '') return;
  const why = transcriptionKindOf(media.mime_type) === undefined ? `its type ${media.mime_type} cannot be transcribed` : `it is over ${MAX_TRANSCRIBABLE_BYTES} bytes`;
  if (slot === 'template_header') {
    throw new CatalogError('TEMPLATE_HEADER_TRANSCRIPTION_MISSING', `The template header media needs header.transcription: ${why}.`);
  }
  throw new CatalogError('TRANSCRIPTION_REQUIRED', `The media needs a transcription: ${why}.`);
}
