import { DateTimeSchema, UuidSchema } from './common.schema';
import { PaginationQuerySchema, pageOf } from './pagination.schema';
import { definePublicEndpoint } from './public-endpoint';
import { z } from './zod';

const optionalText = z.string().nullable();

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
  })
  .openapi('Contact');

export const ContactListQuerySchema = PaginationQuerySchema;

export const ContactListResponseSchema = pageOf(ContactSchema, 'ContactList');

export type Contact = z.infer<typeof ContactSchema>;
export type ContactListQuery = z.infer<typeof ContactListQuerySchema>;
export type ContactListResponse = z.infer<typeof ContactListResponseSchema>;

export const listContactsEndpoint = definePublicEndpoint({
  operationId: 'listContacts',
  method: 'get',
  path: '/contacts',
  summary: 'List contacts (real and tester, told apart by is_tester), newest first',
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
  tag: 'Tester',
  successStatus: 200,
  successDescription: 'One page of tester contacts.',
  errorCodes: ['INVALID_CURSOR'],
  schemas: { query: ContactListQuerySchema, response: ContactListResponseSchema },
  requestExample: { query: { limit: '20' } },
});
