import { ConversationIdSchema, DateTimeSchema, UuidSchema, nullable } from './common.schema';
import { CONSENT_SOURCES, CONSENT_STATUSES } from './contact-event-data.schema';
import { PaginationQuerySchema, pageOf } from './pagination.schema';
import { definePublicEndpoint } from './public-endpoint';
import { requiredText } from './text.schema';
import { z } from './zod';

const optionalText = z.string().nullable();

export const AttributeValueSchema = z.union([z.string(), z.number(), z.boolean()]).openapi('ContactAttributeValue', {
  description: 'By the attribute type: text (a string up to 1,024 characters), number, boolean, date (YYYY-MM-DD), list (one of its options).',
});

export const ContactAttributeValuesSchema = z.record(z.string(), AttributeValueSchema).openapi('ContactAttributes', {
  description: 'Values of the business\'s attribute definitions (GET /contact-attributes), by key.',
  example: { plan: 'gold', orders: 12, vip: true, renewal: '2026-03-01' },
});

export const ConsentStateSchema = z
  .object({
    status: z.enum(CONSENT_STATUSES),
    source: z.enum(CONSENT_SOURCES).nullable(),
    updated_at: DateTimeSchema.nullable(),
  })
  .openapi('ConsentState');

export const ContactConsentSchema = z
  .object({ marketing: ConsentStateSchema, utility: ConsentStateSchema })
  .openapi('ContactConsent', { description: 'CONTRACT 10.2: set by the API, by keywords the customer sends (STOP, START...), and by the provider.' });

export const ContactSchema = z
  .object({
    uuid: UuidSchema,
    first_name: optionalText,
    middle_name: optionalText,
    last_name: optionalText,
    second_last_name: optionalText,
    full_name: optionalText,
    chat_id: optionalText.openapi({ description: 'Phone-based platform id.' }),
    chat_user_id: optionalText.openapi({ description: 'Opaque platform user id.' }),
    chat_username: optionalText.openapi({ description: 'Without @.' }),
    acquisition_source: optionalText,
    is_tester: z.boolean(),
    created_at: DateTimeSchema,
    updated_at: DateTimeSchema,
    channel: optionalText.openapi({ description: 'The public key of the channel the contact belongs to.' }),
    phone: optionalText.openapi({ description: 'E.164 with a leading +.', example: '+5215512345678' }),
    email: optionalText,
    language: optionalText.openapi({ description: 'BCP 47 language tag.', example: 'es-MX' }),
    external_id: optionalText.openapi({ description: "The caller's own id of the contact, unique in the business." }),
    attributes: ContactAttributeValuesSchema,
    consent: ContactConsentSchema,
    conversation: nullable(ConversationIdSchema).openapi({ description: "The contact's one conversation." }),
  })
  .openapi('Contact');

/** CONTRACT 9.1: each filter optional, combined with AND, bound into the cursor. */
export const ContactListQuerySchema = PaginationQuerySchema.extend({
  updated_since: z.iso
    .datetime({ offset: true })
    .optional()
    .openapi({
      description: 'Only contacts updated at or after this instant (RFC 3339; a `+` offset must be sent as `%2B`).',
      example: '2025-01-31T18:00:00Z',
    }),
  phone: requiredText()
    .optional()
    .openapi({
      description: 'Only contacts with this phone, compared by its digits as in a conversation reference (`+52 1 (55) 1234-5678` finds 5215512345678).',
      example: '+5215512345678',
    }),
  chat_user_id: requiredText().optional().openapi({ description: 'Only contacts with this platform user id (exact match).', example: 'US.13491208655302741918' }),
  username: requiredText()
    .optional()
    .openapi({ description: 'Only contacts whose last seen username is this one: a leading @ is ignored, case-insensitive.', example: '@juanperez' }),
});

export const ContactListResponseSchema = pageOf(ContactSchema, 'ContactList');

export type Contact = z.infer<typeof ContactSchema>;
export type ContactListQuery = z.infer<typeof ContactListQuerySchema>;
export type ContactListResponse = z.infer<typeof ContactListResponseSchema>;

export const listContactsEndpoint = definePublicEndpoint({
  operationId: 'listContacts',
  method: 'get',
  path: '/contacts',
  summary: 'List contacts (real and tester, told apart by is_tester), newest first',
  description:
    'Optional filters, combined with AND: `updated_since`, and the exact lookups `phone`, `chat_user_id` and `username`, normalised as in a conversation reference. A lookup that matches nothing answers an empty page. The filters are bound into the cursor: pass the same ones with `cursor`, otherwise 400 INVALID_CURSOR.',
  tag: 'Contacts',
  successStatus: 200,
  successDescription: 'One page of contacts.',
  errorCodes: ['INVALID_CURSOR'],
  schemas: { query: ContactListQuerySchema, response: ContactListResponseSchema },
  requestExample: { query: { limit: '50' } },
});

export const listTesterContactsEndpoint = definePublicEndpoint({
  operationId: 'listTesterContacts',
  method: 'get',
  path: '/tester/contacts',
  summary: 'List tester contacts only, newest first',
  description: 'Takes the filters of GET /{slug}/contacts.',
  tag: 'Tester',
  successStatus: 200,
  successDescription: 'One page of tester contacts.',
  errorCodes: ['INVALID_CURSOR'],
  schemas: { query: ContactListQuerySchema, response: ContactListResponseSchema },
  requestExample: { query: { limit: '20' } },
});
