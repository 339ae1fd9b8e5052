import { catalogCoded } from './catalog-coded';
import { DateTimeSchema, UuidSchema } from './common.schema';
import { ALLOWED_MIME_TYPES, FILE_SIZE_CAPS, type FileCategory, categoryOf, declaredMimeTypePattern } from './file-types';
import { z } from './zod';
import { requiredText } from './text.schema';

/** The path prefixes of signed file URLs, outside the business scope (the signature is the credential). */
export const FILE_TRANSFER_PATHS = {
  /** PUT <prefix>/<token>: the raw bytes of an upload. */
  upload: '/v1/uploads',
  /** GET <prefix>/<token>: a confirmed file, e.g. as the media `link` of a send. */
  download: '/v1/downloads',
} as const;

export const FileModuleSchema = z.enum(['api_messages']).openapi('FileModule', { description: 'What the file is for; api_messages: media of messages and template headers.' });

const CATEGORIES: readonly FileCategory[] = ['image', 'video', 'audio', 'document', 'text'];
const MIB = 1024 * 1024;

/**
 * The type must be one the chat platform takes (400 INVALID_FILE_TYPE) and the size within its
 * category's cap (400 FILE_TOO_LARGE): both rules are in the document (`anyOf`, one branch per
 * category), and a failure answers with its own catalog code.
 */
export const RequestUploadRequestSchema = z
  .object({
    module: FileModuleSchema,
    file_name: requiredText(255),
    mime_type: z
      .string()
      .max(255)
      .refine((mimeType) => declaredMimeTypePattern().test(mimeType), {
        message: `is not an allowed file type; allowed: ${Object.keys(ALLOWED_MIME_TYPES).join(', ')}`,
        ...catalogCoded('INVALID_FILE_TYPE'),
      })
      .openapi({
        pattern: declaredMimeTypePattern().source,
        description:
          'One of image/jpeg, image/png, image/webp (5 MiB); video/mp4, video/3gpp (16 MiB); audio/aac, audio/mp4, audio/mpeg, audio/amr, audio/ogg (16 MiB); application/pdf and office documents (100 MiB); text/plain (5 MiB). Any case; parameters after `;` are ignored. Another type is 400 INVALID_FILE_TYPE.',
      }),
    size: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).openapi({ description: "Exact size of the content in bytes, at most the cap of the type's category (400 FILE_TOO_LARGE)." }),
  })
  .superRefine((request, context) => {
    const category = categoryOf(request.mime_type);
    if (category && request.size > FILE_SIZE_CAPS[category]) {
      context.addIssue({
        code: 'custom',
        path: ['size'],
        message: `a ${category} file may have at most ${FILE_SIZE_CAPS[category]} bytes (${FILE_SIZE_CAPS[category] / MIB} MiB)`,
        ...catalogCoded('FILE_TOO_LARGE'),
      });
    }
  })
  .openapi('RequestUploadRequest', {
    anyOf: CATEGORIES.map((category) => ({
      properties: { mime_type: { pattern: declaredMimeTypePattern(category).source }, size: { maximum: FILE_SIZE_CAPS[category] } },
    })),
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
