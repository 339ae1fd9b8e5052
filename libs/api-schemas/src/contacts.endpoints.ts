import { getContactEligibilityEndpoint } from './contact-eligibility.schema';
import { ContactAttributeDefinitionSchema, ContactAttributeListResponseSchema, ContactAttributeParamsSchema, DefineContactAttributeRequestSchema } from './contact-attribute.schema';
import { ContactIdSchema } from './contact-event-data.schema';
import { ContactFilterSchema } from './contact-filter.schema';
import { ContactListResponseSchema, ContactSchema } from './contact-list.schema';
import { ContactParamsSchema, PatchContactRequestSchema, UpsertContactRequestSchema, UpsertContactResponseSchema } from './contact-write.schema';
import { CursorSchema, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './pagination.schema';
import { type PublicEndpoint, definePublicEndpoint } from './public-endpoint';
import { z } from './zod';

const TAG = 'Contacts';

export const upsertContactEndpoint = definePublicEndpoint({
  operationId: 'upsertContact',
  method: 'post',
  path: '/contacts',
  summary: 'Create or update a contact by identifier (external_id, else chat_user_id, else phone)',
  description:
    'Matched in the order external_id > chat_user_id > phone (digits, within the channel): the given fields are updated and the answer is 200 `{contact, created: false}`. No match: 201 `{contact, created: true}`, created with its conversation (resolved, no AI, window closed); creating needs `phone` or `chat_user_id`. Identifiers that match two different contacts: 409 CONTACT_IDENTIFIER_CONFLICT. `channel` may be omitted when the business has one channel (else 400). `consent` is recorded with source `api`. Events: contact.created, contact.updated, contact.consent_changed.',
  tag: TAG,
  successStatus: 201,
  successDescription: 'The contact was created: `created: true`.',
  otherSuccess: { status: 200, description: 'An existing contact matched and was updated: `created: false`.' },
  errorCodes: ['CHANNEL_NOT_FOUND', 'CONTACT_IDENTIFIER_CONFLICT', 'ATTRIBUTE_UNDEFINED'],
  schemas: { body: UpsertContactRequestSchema, response: UpsertContactResponseSchema },
  requestExample: {
    body: {
      external_id: 'crm-000123',
      phone: '+5215512345678',
      first_name: 'Ana',
      last_name: 'López',
      email: 'ana@example.com',
      language: 'es-MX',
      attributes: { plan: 'gold' },
      consent: { marketing: { status: 'opted_in' } },
    },
  },
});

export const getContactEndpoint = definePublicEndpoint({
  operationId: 'getContact',
  method: 'get',
  path: '/contacts/:uuid',
  summary: 'One contact',
  tag: TAG,
  successStatus: 200,
  successDescription: 'The contact.',
  errorCodes: ['CONTACT_NOT_FOUND'],
  schemas: { params: ContactParamsSchema, response: ContactSchema },
});

export const patchContactEndpoint = definePublicEndpoint({
  operationId: 'patchContact',
  method: 'patch',
  path: '/contacts/:uuid',
  summary: 'Change a contact with a JSON Merge Patch (RFC 7386)',
  description:
    'Names, email, language, external_id and attributes: a member set to null removes it (an attribute key set to null removes that key; `attributes: null` removes them all), an absent one is left alone. phone and chat_user_id are not patchable (400). An external_id another contact holds: 409 CONTACT_IDENTIFIER_CONFLICT. Event: contact.updated naming the fields that changed (none when nothing changed).',
  tag: TAG,
  successStatus: 200,
  successDescription: 'The contact as changed.',
  errorCodes: ['CONTACT_NOT_FOUND', 'CONTACT_IDENTIFIER_CONFLICT', 'ATTRIBUTE_UNDEFINED'],
  schemas: { params: ContactParamsSchema, body: PatchContactRequestSchema, response: ContactSchema },
  requestExample: { body: { email: 'ana.lopez@example.com', attributes: { plan: 'platinum', renewal: null } } },
});

export const EraseContactResponseSchema = z
  .object({
    contact: ContactIdSchema,
    status: z.literal('erasing').openapi({ description: 'The erasure runs on after the answer; the contact.erased event tells when it is done (within seconds).' }),
  })
  .openapi('EraseContactResponse');

export const eraseContactEndpoint = definePublicEndpoint({
  operationId: 'eraseContact',
  method: 'delete',
  path: '/contacts/:uuid',
  summary: 'Erase a contact and every personal datum of it (right to be forgotten)',
  description:
    'Answers 202 at once; the contact is 404 CONTACT_NOT_FOUND from then on. Within seconds every personal datum of the contact is deleted: its names, phone, email, ids and attributes, its conversation with every message, media file, note, timeline row and event, its schedules (pending ones are cancelled), its action groups and payments, and the webhook deliveries of its events. What stays: counters, and the contact.erased event carrying only the uuid. A repeat while it runs answers 202 again; after it: 404. An inbound message from the same number later creates a new contact, with a new uuid. Details: docs/contacts.md, "Erasure".',
  tag: TAG,
  successStatus: 202,
  successDescription: 'The erasure started.',
  errorCodes: ['CONTACT_NOT_FOUND'],
  schemas: { params: ContactParamsSchema, response: EraseContactResponseSchema },
});

export const SearchContactsRequestSchema = z
  .object({
    filter: ContactFilterSchema,
    cursor: CursorSchema.optional().openapi({ description: 'From next_cursor of the previous page; bound to the filter it was issued with (another filter: 400 INVALID_CURSOR).' }),
    limit: z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  })
  .openapi('SearchContactsRequest');

export const searchContactsEndpoint = definePublicEndpoint({
  operationId: 'searchContacts',
  method: 'post',
  path: '/contacts/search',
  summary: 'Search contacts with a filter (the language broadcast audiences use), newest first',
  description:
    'A read (`conversations:read`): the filter travels in the body. `{and: [...]}` or `{or: [...]}` of conditions `{field, op, value}` or nested groups, at most 2 levels and 20 conditions; a wrong field, op or value type is 400 INVALID_REQUEST naming its path. Names and email compare case- and accent-insensitively. Which conditions an index serves on MongoDB: docs/contacts.md.',
  tag: TAG,
  successStatus: 200,
  successDescription: 'One page of contacts.',
  errorCodes: ['INVALID_CURSOR'],
  schemas: { body: SearchContactsRequestSchema, response: ContactListResponseSchema },
  requestExample: {
    body: {
      filter: { and: [{ field: 'attributes.plan', op: 'eq', value: 'gold' }, { field: 'consent.marketing', op: 'neq', value: 'opted_out' }] },
      limit: 50,
    },
  },
});

export const defineContactAttributeEndpoint = definePublicEndpoint({
  operationId: 'defineContactAttribute',
  method: 'post',
  path: '/contact-attributes',
  summary: 'Define a typed contact attribute',
  description: 'At most 100 definitions per business (409 ATTRIBUTE_LIMIT_REACHED); a key defined twice: 409 ATTRIBUTE_ALREADY_DEFINED.',
  tag: TAG,
  successStatus: 201,
  successDescription: 'The definition.',
  errorCodes: ['ATTRIBUTE_LIMIT_REACHED', 'ATTRIBUTE_ALREADY_DEFINED'],
  schemas: { body: DefineContactAttributeRequestSchema, response: ContactAttributeDefinitionSchema },
  requestExample: { body: { key: 'plan', type: 'list', options: ['free', 'gold', 'platinum'] } },
});

export const listContactAttributesEndpoint = definePublicEndpoint({
  operationId: 'listContactAttributes',
  method: 'get',
  path: '/contact-attributes',
  summary: "The business's contact attribute definitions, oldest first",
  tag: TAG,
  successStatus: 200,
  successDescription: 'Every definition (at most 100).',
  errorCodes: [],
  schemas: { response: ContactAttributeListResponseSchema },
});

export const deleteContactAttributeEndpoint = definePublicEndpoint({
  operationId: 'deleteContactAttribute',
  method: 'delete',
  path: '/contact-attributes/:key',
  summary: 'Remove a contact attribute definition and every value of it',
  description: 'Answers 200 with the definition as it was; a key that is not defined (or a second DELETE): 422 ATTRIBUTE_UNDEFINED.',
  tag: TAG,
  successStatus: 200,
  successDescription: 'The removed definition.',
  errorCodes: ['ATTRIBUTE_UNDEFINED'],
  schemas: { params: ContactAttributeParamsSchema, response: ContactAttributeDefinitionSchema },
});

export const CONTACT_ENDPOINTS: readonly PublicEndpoint[] = [
  upsertContactEndpoint,
  getContactEndpoint,
  patchContactEndpoint,
  eraseContactEndpoint,
  searchContactsEndpoint,
  getContactEligibilityEndpoint,
  defineContactAttributeEndpoint,
  listContactAttributesEndpoint,
  deleteContactAttributeEndpoint,
];
