import { CatalogError } from '@cmsg/errors';

/** The chat platform's media categories; each has one size cap (SPEC 8, CONTRACT 5). */
export type FileCategory = 'image' | 'video' | 'audio' | 'document' | 'text';

const MIB = 1024 * 1024;

/** Upload caps per category. The platform states them in MB; binary megabytes are used here. */
export const FILE_SIZE_CAPS: Readonly<Record<FileCategory, number>> = {
  image: 5 * MIB,
  video: 16 * MIB,
  audio: 16 * MIB,
  document: 100 * MIB,
  text: 5 * MIB,
};

/** Every MIME type an upload may declare, with its category. */
export const ALLOWED_MIME_TYPES: Readonly<Record<string, FileCategory>> = {
  'image/jpeg': 'image',
  'image/png': 'image',
  'image/webp': 'image',
  'video/mp4': 'video',
  'video/3gpp': 'video',
  'audio/aac': 'audio',
  'audio/mp4': 'audio',
  'audio/mpeg': 'audio',
  'audio/amr': 'audio',
  'audio/ogg': 'audio',
  'application/pdf': 'document',
  'application/msword': 'document',
  'application/vnd.ms-excel': 'document',
  'application/vnd.ms-powerpoint': 'document',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'document',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'document',
  'text/plain': 'text',
};

/** `Image/JPEG; charset=x` -> `image/jpeg`: parameters and case do not change the type. */
export function normalizeMimeType(mimeType: string): string {
  return mimeType.split(';')[0]!.trim().toLowerCase();
}

export function categoryOf(mimeType: string): FileCategory | undefined {
  return ALLOWED_MIME_TYPES[normalizeMimeType(mimeType)];
}

/**
 * What request-upload checks before anything is stored: the declared type is allowed
 * (INVALID_FILE_TYPE) and the declared size fits its category (FILE_TOO_LARGE). Answers the
 * normalised type and its category.
 */
export function checkDeclaredFile(mimeType: string, size: number): { mimeType: string; category: FileCategory } {
  const normalized = normalizeMimeType(mimeType);
  const category = ALLOWED_MIME_TYPES[normalized];
  if (!category) {
    throw new CatalogError('INVALID_FILE_TYPE', `Files of type ${JSON.stringify(mimeType)} are not allowed; allowed: ${Object.keys(ALLOWED_MIME_TYPES).join(', ')}.`);
  }
  const cap = FILE_SIZE_CAPS[category];
  if (size > cap) throw new CatalogError('FILE_TOO_LARGE', `A ${category} file may have at most ${cap} bytes (${cap / MIB} MiB); this one declares ${size}.`);
  return { mimeType: normalized, category };
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
  'video/3gpp': '3gp',
  'audio/aac': 'aac',
  'audio/mp4': 'm4a',
  'audio/mpeg': 'mp3',
  'audio/amr': 'amr',
  'audio/ogg': 'ogg',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
};

/** A file name for media that came without one (inbound images, voice notes). */
export function defaultFileName(baseName: string, mimeType: string): string {
  const extension = EXTENSIONS[normalizeMimeType(mimeType)] ?? 'bin';
  return `${baseName}.${extension}`;
}
