import { ALLOWED_MIME_TYPES, FILE_SIZE_CAPS, type FileCategory, categoryOf, normalizeMimeType } from '@cmsg/api-schemas';
import { CatalogError } from '@cmsg/errors';

export { ALLOWED_MIME_TYPES, FILE_SIZE_CAPS, categoryOf, normalizeMimeType };
export type { FileCategory };

const MIB = 1024 * 1024;

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
