import { UuidSchema } from './common.schema';
import { PaginationQuerySchema, pageOf } from './pagination.schema';
import { z } from './zod';

export const TEMPLATE_CATEGORIES = ['marketing', 'utility', 'authentication'] as const;
/** `pending` until the provider reviews it; the provider's status webhook moves it (CONTRACT 10.3). */
export const TEMPLATE_STATUSES = ['approved', 'pending', 'rejected', 'paused', 'disabled'] as const;

export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];

export const TemplateCategorySchema = z.enum(TEMPLATE_CATEGORIES).openapi('TemplateCategory');
export const TemplateStatusSchema = z
  .enum(TEMPLATE_STATUSES)
  .openapi('TemplateStatus', { description: 'Only `approved` templates can be sent; any other is refused with TEMPLATE_NOT_APPROVED before any provider call.' });

export const TemplateButtonSchema = z
  .object({
    type: z.string().openapi({ description: 'quick_reply, url, phone_number or copy_code.' }),
    text: z.string(),
    url: z.string().optional(),
    phone_number: z.string().optional(),
  })
  .openapi('TemplateButton');

export const TemplateSchema = z
  .object({
    uuid: UuidSchema,
    name: z.string(),
    language: z.string().openapi({ example: 'es_MX' }),
    category: TemplateCategorySchema,
    status: TemplateStatusSchema,
    body: z.string().openapi({ description: 'With {{1}}..{{n}} placeholders, filled by `variables` when sending.' }),
    variable_count: z.number().int(),
    header_type: z.enum(['text', 'image', 'video', 'document', 'location']).nullable(),
    buttons: z.array(TemplateButtonSchema),
    channel: z.string().openapi({ description: "The channel's public key." }),
  })
  .openapi('Template');

export const TemplateListQuerySchema = PaginationQuerySchema.extend({
  channel: z.string().min(1).optional().openapi({ description: 'Only templates of this channel (public key); an unknown one is CHANNEL_NOT_FOUND.' }),
  category: TemplateCategorySchema.optional(),
  status: TemplateStatusSchema.optional(),
});

export const TemplateListResponseSchema = pageOf(TemplateSchema, 'TemplateList');

export const TemplateParamsSchema = z.object({ uuid: UuidSchema });

export type Template = z.infer<typeof TemplateSchema>;
export type TemplateListQuery = z.infer<typeof TemplateListQuerySchema>;
export type TemplateListResponse = z.infer<typeof TemplateListResponseSchema>;
