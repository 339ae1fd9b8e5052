import { DateTimeSchema, UuidSchema } from './common.schema';
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

export const RequestUploadRequestSchema = z
  .object({
    module: FileModuleSchema,
    file_name: requiredText(255),
    mime_type: z.string().min(1).max(255).openapi({
      description:
        'image/jpeg, image/png, image/webp (5 MiB); video/mp4, video/3gpp (16 MiB); audio/aac, audio/mp4, audio/mpeg, audio/amr, audio/ogg (16 MiB); application/pdf and office documents (100 MiB); text/plain (5 MiB).',
    }),
    size: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).openapi({ description: 'Exact size of the content in bytes.' }),
  })
  .openapi('RequestUploadRequest');

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
