import { DateTimeSchema, NamedRefSchema, TagSchema, UuidSchema, nullable } from './common.schema';
import { PaginationQuerySchema, pageOf } from './pagination.schema';
import { definePublicEndpoint } from './public-endpoint';
import { z } from './zod';

export const SortOrderSchema = z.enum(['asc', 'desc']).default('desc').openapi({ description: 'By last_message_at; ties by uuid.' });

export const ListConversationsQuerySchema = PaginationQuerySchema.extend({ order: SortOrderSchema });

export const ConversationListItemSchema = z
  .object({
    uuid: UuidSchema,
    contact: z.object({
      uuid: UuidSchema,
      name: z.string().nullable(),
      profile_name: z.string().nullable(),
      phone: z.string().nullable(),
      chat_user_id: z.string().nullable(),
    }),
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
  summary: 'List conversations, most recent first by default, with cursor pagination',
  tag: 'Conversations',
  successStatus: 200,
  successDescription: 'One page of conversations.',
  errorCodes: ['INVALID_CURSOR'],
  schemas: { query: ListConversationsQuerySchema, response: ConversationListResponseSchema },
  requestExample: { query: { limit: '20', order: 'desc' } },
});
