import { catalogCoded } from './catalog-coded';
import { DateTimeSchema, UuidSchema } from './common.schema';
import {
  ALLOWED_MIME_TYPES,
  AUDIENCE_FILE_MIME_TYPES,
  AUDIENCE_FILE_SIZE_CAP,
  FILE_SIZE_CAPS,
  type FileCategory,
  UPLOAD_FILE_MODULES,
  type UploadFileModule,
  categoryOf,
  declaredAudienceMimeTypePattern,
  declaredMimeTypePattern,
  declaredUploadMimeTypePattern,
  isAudienceFileMimeType,
} from './file-types';
import { z } from './zod';
import { requiredText } from './text.schema';

/** The path prefixes of signed file URLs, outside the business scope (the signature is the credential). */
export const FILE_TRANSFER_PATHS = {
  /** PUT <prefix>/<token>: the raw bytes of an upload. */
  upload: '/v1/uploads',
  /** GET <prefix>/<token>: a confirmed file, e.g. as the media `link` of a send. */
  download: '/v1/downloads',
} as const;

export const FileModuleSchema = z.enum(UPLOAD_FILE_MODULES).openapi('FileModule', {
  description:
    'What the file is for. api_messages: media of messages and template headers. broadcast_audiences: the audience file of a broadcast (`audience: { file_uuid }` of POST /broadcasts), text/csv with a header row or application/x-ndjson; it can only be named as an audience, never sent.',
});

const CATEGORIES: readonly FileCategory[] = ['image', 'video', 'audio', 'document', 'text'];
const MIB = 1024 * 1024;
const UPLOAD_TYPE_PATTERN = declaredUploadMimeTypePattern();

/** The size cap of a declared type within its module; undefined when the module does not take the type. */
function sizeCapOf(module: UploadFileModule, mimeType: string): { cap: number; what: string } | undefined {
  if (module === 'broadcast_audiences') return isAudienceFileMimeType(mimeType) ? { cap: AUDIENCE_FILE_SIZE_CAP, what: 'broadcast audience' } : undefined;
  const category = categoryOf(mimeType);
  return category && { cap: FILE_SIZE_CAPS[category], what: category };
}

/**
 * The type must be one the module takes (400 INVALID_FILE_TYPE) and the size within its cap (400
 * FILE_TOO_LARGE): both rules are in the document (`anyOf`, one branch per api_messages category
 * and one for broadcast_audiences), and a failure answers with its own catalog code.
 */
export const RequestUploadRequestSchema = z
  .object({
    module: FileModuleSchema,
    file_name: requiredText(255),
    mime_type: z
      .string()
      .max(255)
      .refine((mimeType) => UPLOAD_TYPE_PATTERN.test(mimeType), {
        message: `is not an allowed file type; allowed: ${Object.keys(ALLOWED_MIME_TYPES).join(', ')} (module api_messages); ${AUDIENCE_FILE_MIME_TYPES.join(', ')} (module broadcast_audiences)`,
        ...catalogCoded('INVALID_FILE_TYPE'),
      })
      .openapi({
        pattern: UPLOAD_TYPE_PATTERN.source,
        description:
          'Module api_messages: one of image/jpeg, image/png, image/webp (5 MiB); video/mp4, video/3gpp (16 MiB); audio/aac, audio/mp4, audio/mpeg, audio/amr, audio/ogg (16 MiB); application/pdf and office documents (100 MiB); text/plain (5 MiB). Module broadcast_audiences: text/csv or application/x-ndjson (100 MiB). Any case; parameters after `;` are ignored. A type the module does not take is 400 INVALID_FILE_TYPE.',
      }),
    size: z
      .number()
      .int()
      .min(1)
      .max(Number.MAX_SAFE_INTEGER)
      .openapi({ description: "Exact size of the content in bytes, at most the cap of the type's category (broadcast_audiences: 100 MiB) (400 FILE_TOO_LARGE)." }),
  })
  .superRefine((request, context) => {
    // A type no module takes was refused on the field already.
    if (!UPLOAD_TYPE_PATTERN.test(request.mime_type)) return;
    const limit = sizeCapOf(request.module, request.mime_type);
    if (!limit) {
      const allowed = request.module === 'broadcast_audiences' ? AUDIENCE_FILE_MIME_TYPES : Object.keys(ALLOWED_MIME_TYPES);
      context.addIssue({ code: 'custom', path: ['mime_type'], message: `is not a type of module ${request.module}; allowed: ${allowed.join(', ')}`, ...catalogCoded('INVALID_FILE_TYPE') });
    } else if (request.size > limit.cap) {
      context.addIssue({
        code: 'custom',
        path: ['size'],
        message: `a ${limit.what} file may have at most ${limit.cap} bytes (${limit.cap / MIB} MiB)`,
        ...catalogCoded('FILE_TOO_LARGE'),
      });
    }
  })
  .openapi('RequestUploadRequest', {
    anyOf: [
      ...CATEGORIES.map((category) => ({
        properties: { module: { const: 'api_messages' }, mime_type: { pattern: declaredMimeTypePattern(category).source }, size: { maximum: FILE_SIZE_CAPS[category] } },
      })),
      { properties: { module: { const: 'broadcast_audiences' }, mime_type: { pattern: declaredAudienceMimeTypePattern().source }, size: { maximum: AUDIENCE_FILE_SIZE_CAP } } },
    ],
  });

export const RequestUploadResponseSchema = z
  .object({
    file: z.object({ uuid: UuidSchema, status: z.literal('pending') }),
    upload: z.object({
      url: z.string().url().openapi({ description: 'Signed URL; PUT the raw bytes there (any Content-Type) before it expires, then confirm.' }),
      method: z.literal('PUT'),
      expires_at: DateTimeSchema,
    }),
  })
  .openapi('RequestUploadResponse');

export const ConfirmUploadRequestSchema = z.object({ file_uuid: UuidSchema }).openapi('ConfirmUploadRequest');

export const ConfirmedFileSchema = z
  .object({
    uuid: UuidSchema,
    status: z.literal('confirmed'),
    mime_type: z.string(),
    size: z.number().int().min(1),
    file_name: z.string(),
  })
  .openapi('ConfirmedFile');

export const ConfirmUploadResponseSchema = z.object({ file: ConfirmedFileSchema }).openapi('ConfirmUploadResponse');

export type RequestUploadRequest = z.infer<typeof RequestUploadRequestSchema>;
export type RequestUploadResponse = z.infer<typeof RequestUploadResponseSchema>;
export type ConfirmUploadRequest = z.infer<typeof ConfirmUploadRequestSchema>;
export type ConfirmUploadResponse = z.infer<typeof ConfirmUploadResponseSchema>;
