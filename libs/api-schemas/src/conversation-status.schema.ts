import { DateTimeSchema, InboxStatusSchema, NamedRefSchema, TagSchema, UuidSchema, nullable } from './common.schema';
import { STATUS_REFERENCE_ERROR_CODES, StatusConversationReferenceSchema } from './conversation-reference.schema';
import { definePublicEndpoint } from './public-endpoint';
import { z } from './zod';

export const ConversationStatusRequestSchema = z
  .object({ conversation: StatusConversationReferenceSchema })
  .openapi('ConversationStatusRequest');

export const WindowStatusSchema = z.enum(['open', 'closed']).openapi('WindowStatus');

export const ConversationStatusSnapshotSchema = z
  .object({
    conversation: z.object({ uuid: UuidSchema, phone: z.string().nullable(), chat_user_id: z.string().nullable() }),
    window: z.object({
      status: WindowStatusSchema,
      expires_at: DateTimeSchema.nullable().openapi({ description: 'Last inbound customer message + 24 h; null if the contact never wrote.' }),
      hours_remaining: z.number().min(0).openapi({ description: 'Fractional hours; 0 when closed.' }),
    }),
    assignment: z.object({ ai_employee: nullable(NamedRefSchema) }),
    mailbox: nullable(NamedRefSchema),
    tags: z.array(TagSchema),
    inbox_status: InboxStatusSchema,
    last_message: nullable(
      z.object({ uuid: UuidSchema, is_from_customer: z.boolean(), created_at: DateTimeSchema }).openapi('LastMessage'),
    ),
    is_tester: z.boolean().openapi({ description: 'When true the conversation is fictitious; nothing reaches the channel provider.' }),
    tester_virtual_now: DateTimeSchema.nullable().openapi({ description: "The tester's virtual clock; null unless is_tester." }),
  })
  .openapi('ConversationStatusSnapshot');

export type ConversationStatusRequest = z.infer<typeof ConversationStatusRequestSchema>;
export type ConversationStatusSnapshot = z.infer<typeof ConversationStatusSnapshotSchema>;
export type WindowStatus = z.infer<typeof WindowStatusSchema>;

export const conversationStatusEndpoint = definePublicEndpoint({
  operationId: 'getConversationStatus',
  method: 'post',
  path: '/conversation/status',
  summary: 'Read a snapshot of a conversation: window, owner, mailbox, tags, inbox status',
  tag: 'Conversations',
  successStatus: 200,
  successDescription: 'The status snapshot.',
  errorCodes: STATUS_REFERENCE_ERROR_CODES,
  schemas: { body: ConversationStatusRequestSchema, response: ConversationStatusSnapshotSchema },
  requestExample: { body: { conversation: { phone: '+52 1 55 1234 5678' } } },
});
