import { UuidSchema, nullable } from './common.schema';
import { AttributeValueSchema, ContactSchema } from './contact-list.schema';
import { requiredText } from './text.schema';
import { z } from './zod';

const NAME_MAX = 255;
const EXTERNAL_ID_MAX = 255;

/** BCP 47, as far as a shape can tell: a 2-3 letter language and subtags (`es`, `es-MX`, `zh-Hant-TW`). */
const LanguageSchema = z
  .string()
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, { message: 'must be a BCP 47 language tag (e.g. es-MX)' })
  .openapi({ example: 'es-MX' });

const EmailSchema = z.email().max(254).openapi({ example: 'ana@example.com' });

const ExternalIdSchema = requiredText(EXTERNAL_ID_MAX).openapi({ description: "The caller's own id, unique in the business.", example: 'crm-000123' });

const ConsentInputStateSchema = z.object({ status: z.enum(['opted_in', 'opted_out']) });

export const ConsentInputSchema = z
  .object({ marketing: ConsentInputStateSchema.optional(), utility: ConsentInputStateSchema.optional() })
  .openapi('ConsentInput', { description: 'Recorded with source `api`; each category changes only when its status differs.' });

const AttributeWritesSchema = z.record(z.string(), nullable(AttributeValueSchema)).openapi('ContactAttributeWrites', {
  description:
    'Values by attribute key, each checked against its definition: an undefined key is 422 ATTRIBUTE_UNDEFINED, a value of the wrong type (a text over 1,024 characters, a list value outside its options, a date that is not YYYY-MM-DD) 400 INVALID_REQUEST naming the key. `null` removes the key; keys not named keep their values.',
});

export const UpsertContactRequestSchema = z
  .object({
    channel: requiredText().optional().openapi({ description: 'Channel public key; may be omitted when the business has one channel.' }),
    phone: requiredText(32).optional().openapi({ description: 'Any spelling; 8 to 15 digits once normalised, else 400.', example: '+52 1 55 1234 5678' }),
    chat_user_id: requiredText(255).optional(),
    external_id: ExternalIdSchema.optional(),
    first_name: requiredText(NAME_MAX).optional(),
    last_name: requiredText(NAME_MAX).optional(),
    email: EmailSchema.optional(),
    language: LanguageSchema.optional(),
    attributes: AttributeWritesSchema.optional(),
    consent: ConsentInputSchema.optional(),
  })
  .openapi('UpsertContactRequest');

export const UpsertContactResponseSchema = z.object({ contact: ContactSchema, created: z.boolean() }).openapi('UpsertContactResponse');

export const ContactParamsSchema = z.object({ uuid: UuidSchema });

/** RFC 7386: a member set to null removes it, an absent one is left alone. */
export const PatchContactRequestSchema = z
  .object({
    first_name: requiredText(NAME_MAX).nullable().optional(),
    last_name: requiredText(NAME_MAX).nullable().optional(),
    email: EmailSchema.nullable().optional(),
    language: LanguageSchema.nullable().optional(),
    external_id: ExternalIdSchema.nullable().optional(),
    attributes: nullable(AttributeWritesSchema).optional(),
    phone: z.never({ error: 'phone is not patchable; create a contact with POST /contacts' }).optional().openapi({ type: 'string', not: {}, description: 'Not patchable: sending it is 400 INVALID_REQUEST.' }),
    chat_user_id: z.never({ error: 'chat_user_id is not patchable; create a contact with POST /contacts' }).optional().openapi({ type: 'string', not: {}, description: 'Not patchable: sending it is 400 INVALID_REQUEST.' }),
  })
  .openapi('PatchContactRequest', { description: 'JSON Merge Patch (RFC 7386) of the contact; send it as application/json or application/merge-patch+json.' });

export type UpsertContactRequest = z.infer<typeof UpsertContactRequestSchema>;
export type UpsertContactResponse = z.infer<typeof UpsertContactResponseSchema>;
export type PatchContactRequest = z.output<typeof PatchContactRequestSchema>;
