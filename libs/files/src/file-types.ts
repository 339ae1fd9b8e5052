import {
  ALLOWED_MIME_TYPES,
  AUDIENCE_FILE_MIME_TYPES,
  AUDIENCE_FILE_SIZE_CAP,
  FILE_SIZE_CAPS,
  type FileCategory,
  UPLOAD_FILE_MODULES,
  type UploadFileModule,
  categoryOf,
  normalizeMimeType,
} from '@cmsg/api-schemas';
import { CatalogError } from '@cmsg/errors';

export { ALLOWED_MIME_TYPES, AUDIENCE_FILE_MIME_TYPES, AUDIENCE_FILE_SIZE_CAP, FILE_SIZE_CAPS, UPLOAD_FILE_MODULES, categoryOf, normalizeMimeType };
export type { FileCategory, UploadFileModule };

const MIB = 1024 * 1024;

/** The stored category of a broadcast audience file: its own cap, not the chat platform's text cap. */
export const AUDIENCE_FILE_CATEGORY = 'broadcast_audience';

export function isUploadModule(module: string): module is UploadFileModule {
  return (UPLOAD_FILE_MODULES as readonly string[]).includes(module);
}

/**
 * What request-upload checks before anything is stored: the declared type is one the module takes
 * (INVALID_FILE_TYPE) and the declared size fits its cap (FILE_TOO_LARGE). Answers the normalised
 * type and its category.
 */
export function checkDeclaredFile(mimeType: string, size: number, module: UploadFileModule = 'api_messages'): { mimeType: string; category: FileCategory | typeof AUDIENCE_FILE_CATEGORY } {
  const normalized = normalizeMimeType(mimeType);
  if (module === 'broadcast_audiences') {
    if (!AUDIENCE_FILE_MIME_TYPES.includes(normalized)) throw invalidType(module, mimeType, AUDIENCE_FILE_MIME_TYPES);
    if (size > AUDIENCE_FILE_SIZE_CAP) throw tooLarge('broadcast audience', AUDIENCE_FILE_SIZE_CAP, size);
    return { mimeType: normalized, category: AUDIENCE_FILE_CATEGORY };
  }
  const category = ALLOWED_MIME_TYPES[normalized];
  if (!category) throw invalidType(module, mimeType, Object.keys(ALLOWED_MIME_TYPES));
  const cap = FILE_SIZE_CAPS[category];
  if (size > cap) throw tooLarge(category, cap, size);
  return { mimeType: normalized, category };
}

function invalidType(module: UploadFileModule, mimeType: string, allowed: readonly string[]): CatalogError {
  return new CatalogError('INVALID_FILE_TYPE', `Files of type ${JSON.stringify(mimeType)} are not allowed in module ${module}; allowed: ${allowed.join(', ')}.`);
}

function tooLarge(what: string, cap: number, size: number): CatalogError {
  return new CatalogError('FILE_TOO_LARGE', `A ${what} file may have at most ${cap} bytes (${cap / MIB} MiB); this one declares ${size}.`);
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
