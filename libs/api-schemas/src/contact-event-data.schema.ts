import { UuidSchema } from './common.schema';
import { z } from './zod';

/**
 * The `data` of the contact events (CONTRACT 10.1, 10.2). They carry the contact's uuid and what
 * changed, never its personal data: a receiver reads the contact with GET /contacts/{uuid}, and an
 * erasure has nothing to take back from events already delivered.
 */
export const ContactIdSchema = z.object({ uuid: UuidSchema }).openapi('ContactId');

export const CONTACT_FIELDS_IN_CHANGES = ['first_name', 'last_name', 'email', 'language', 'external_id', 'phone', 'chat_user_id', 'attributes'] as const;

export const ContactCreatedDataSchema = z.object({ contact: ContactIdSchema }).openapi('ContactCreatedData');

export const ContactUpdatedDataSchema = z
  .object({
    contact: ContactIdSchema,
    changed: z.array(z.string()).min(1).openapi({ description: 'The fields whose value changed: names, email, language, external_id, phone, chat_user_id, and `attributes.<key>` per attribute.' }),
  })
  .openapi('ContactUpdatedData');

export const CONSENT_STATUSES = ['opted_in', 'opted_out', 'unknown'] as const;
export const CONSENT_SOURCES = ['api', 'keyword', 'provider', 'import'] as const;
export const CONSENT_CATEGORIES = ['marketing', 'utility'] as const;

export const ContactConsentChangedDataSchema = z
  .object({
    contact: ContactIdSchema,
    category: z.enum(CONSENT_CATEGORIES),
    from: z.enum(CONSENT_STATUSES),
    to: z.enum(CONSENT_STATUSES),
    source: z.enum(CONSENT_SOURCES),
  })
  .openapi('ContactConsentChangedData');

export const ContactErasedDataSchema = z.object({ contact: ContactIdSchema }).openapi('ContactErasedData', { description: 'Only the uuid: everything else of the contact is gone.' });
