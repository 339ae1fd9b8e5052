import { ContactSummarySchema, DateTimeSchema, InboxStatusSchema, NamedRefSchema, TagSchema, UuidSchema, nullable } from './common.schema';
import { PaginationQuerySchema, pageOf } from './pagination.schema';
import { definePublicEndpoint } from './public-endpoint';
import { z } from './zod';

export const SortOrderSchema = z.enum(['asc', 'desc']).default('desc').openapi({ description: 'By last_message_at; ties by uuid.' });

/** At most this many `tag` parameters in one request. */
export const MAX_TAG_FILTERS = 20;

const EXAMPLE_UUID = '3f2b8c1e-6a4d-4e0b-9c7a-1d2e3f4a5b6c';

/**
 * `tag` may be repeated (`tag=a&tag=b`): the query parser gives one value as a string and several
 * as an array, and both are read as the list (the document says it is an array sent form-exploded).
 */
const TagFilterSchema = z
  .preprocess((value) => (typeof value === 'string' ? [value] : value), z.array(UuidSchema).min(1).max(MAX_TAG_FILTERS))
  .openapi({
    description: `A tag uuid. Repeat the parameter (\`tag=a&tag=b\`, up to ${MAX_TAG_FILTERS}) for the conversations that have every one of them.`,
    param: { style: 'form', explode: true, example: [EXAMPLE_UUID] },
  });

/** CONTRACT 9.1: each filter optional, combined with AND, bound into the cursor. */
export const ConversationListFiltersSchema = z.object({
  inbox_status: InboxStatusSchema.optional(),
  tag: TagFilterSchema.optional(),
  mailbox: UuidSchema.optional().openapi({ description: 'A mailbox uuid.' }),
  ai_employee: z
    .union([UuidSchema, z.literal('none')])
    .optional()
    .openapi({ description: 'An AI employee uuid, or `none` for the conversations no AI employee owns (the human team).', param: { example: 'none' } }),
  window: z
    .enum(['open', 'closed'])
    .optional()
    .openapi({
      description:
        "The 24 h messaging window: open while the customer's last message is less than 24 h old; closed otherwise, also when the customer never wrote. Tester conversations are seen on the business's tester clock.",
    }),
  is_tester: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional()
    .openapi({ description: 'true: tester conversations only; false: real conversations only.' }),
  updated_since: z.iso
    .datetime({ offset: true })
    .optional()
    .openapi({
      description: 'Conversations changed at or after this time: a message shown as the last one, the inbox status, the owner, the tags or the mailbox.',
      param: { example: '2025-01-31T00:00:00Z' },
    }),
});

export const ListConversationsQuerySchema = PaginationQuerySchema.extend({ order: SortOrderSchema, ...ConversationListFiltersSchema.shape });

export const ConversationListItemSchema = z
  .object({
    uuid: UuidSchema,
    contact: ContactSummarySchema,
    last_message_at: DateTimeSchema.nullable(),
    last_message_preview: nullable(
      z.object({ body: z.string(), content_type: z.string(), is_from_customer: z.boolean() }).openapi('LastMessagePreview'),
    ),
    unread_count: z.number().int().min(0),
    mailbox: nullable(NamedRefSchema),
    ai_employee: nullable(NamedRefSchema),
    tags: z.array(TagSchema),
    messaging_window_expires_at: DateTimeSchema.nullable(),
    is_tester: z.boolean(),
    inbox_status: InboxStatusSchema,
    updated_at: DateTimeSchema.openapi({ description: 'Last change of the last message, inbox status, owner, tags or mailbox (what updated_since filters on).' }),
  })
  .openapi('ConversationListItem');

export const ConversationListResponseSchema = pageOf(ConversationListItemSchema, 'ConversationList');

export type ListConversationsQuery = z.infer<typeof ListConversationsQuerySchema>;
export type ConversationListItem = z.infer<typeof ConversationListItemSchema>;
export type ConversationListResponse = z.infer<typeof ConversationListResponseSchema>;

export const listConversationsEndpoint = definePublicEndpoint({
  operationId: 'listConversations',
  method: 'get',
  path: '/conversations',
  summary: 'List conversations, most recent first by default, with cursor pagination and filters',
  description:
    'Filters are optional and combined with AND. A cursor is bound to the filters and the order it was made with: using it with other filters is 400 `INVALID_CURSOR`.',
  tag: 'Conversations',
  successStatus: 200,
  successDescription: 'One page of conversations.',
  errorCodes: ['INVALID_CURSOR'],
  schemas: { query: ListConversationsQuerySchema, response: ConversationListResponseSchema },
  requestExample: {
    query: { limit: '20', order: 'desc', inbox_status: 'pending', tag: ['3f2b8c1e-6a4d-4e0b-9c7a-1d2e3f4a5b6c', '9d1c2b3a-4e5f-4a6b-8c7d-0e1f2a3b4c5d'], window: 'open' },
  },
});
