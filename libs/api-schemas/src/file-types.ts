import { WHITESPACE } from './text.schema';

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

/** Every MIME type an upload of module api_messages may declare, with its category. */
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

/** The file modules an upload may name: api_messages (media of sends), broadcast_audiences (CONTRACT 10.4). */
export const UPLOAD_FILE_MODULES = ['api_messages', 'broadcast_audiences'] as const;
export type UploadFileModule = (typeof UPLOAD_FILE_MODULES)[number];

/**
 * The types of a broadcast audience file (module broadcast_audiences), read row by row and never
 * sent: CSV with a header row, or one JSON object per line. One cap for both: CONTRACT 10.4's 100 MB.
 */
export const AUDIENCE_FILE_MIME_TYPES: readonly string[] = ['text/csv', 'application/x-ndjson'];
export const AUDIENCE_FILE_SIZE_CAP = 100 * MIB;

export function isAudienceFileMimeType(mimeType: string): boolean {
  return AUDIENCE_FILE_MIME_TYPES.includes(normalizeMimeType(mimeType));
}

/** `image/jpeg` -> `[iI][mM][aA][gG][eE]/[jJ][pP][eE][gG]`, the rest escaped. */
function caseInsensitive(type: string): string {
  return [...type].map((char) => (/[a-z]/.test(char) ? `[${char}${char.toUpperCase()}]` : char.replace(/[.+]/g, '\\$&'))).join('');
}

/**
 * The declared MIME types of `category` (every allowed type without one) as normalizeMimeType
 * reads them: any case, surrounding whitespace, parameters after `;`. A pattern, so the OpenAPI
 * document states the rule exactly (JSON Schema has no case-insensitive flag).
 */
export function declaredMimeTypePattern(category?: FileCategory): RegExp {
  return declaredTypesPattern(Object.entries(ALLOWED_MIME_TYPES).flatMap(([type, of]) => (category === undefined || of === category ? [type] : [])));
}

/** The same for the types of module broadcast_audiences. */
export function declaredAudienceMimeTypePattern(): RegExp {
  return declaredTypesPattern(AUDIENCE_FILE_MIME_TYPES);
}

/** Any type some upload module takes (which module takes it is checked beside the module). */
export function declaredUploadMimeTypePattern(): RegExp {
  return declaredTypesPattern([...Object.keys(ALLOWED_MIME_TYPES), ...AUDIENCE_FILE_MIME_TYPES]);
}

function declaredTypesPattern(types: readonly string[]): RegExp {
  return new RegExp(`^[${WHITESPACE}]*(?:${types.map(caseInsensitive).join('|')})[${WHITESPACE}]*(?:;[\\s\\S]*)?$`);
}
