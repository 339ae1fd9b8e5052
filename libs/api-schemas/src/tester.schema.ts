import { ContactSchema } from './contact-list.schema';
import { DateTimeSchema, UuidSchema } from './common.schema';
import { ConversationReferenceSchema } from './conversation-reference.schema';
import { MessageTextSchema } from './message-content.schema';
import { z } from './zod';
import { requiredText } from './text.schema';

/** CONTRACT 3: "about 1 year" is 366 days; the tester clock moves at most that far at once. */
export const MAX_TESTER_CLOCK_ADVANCE_SECONDS = 366 * 24 * 60 * 60;

export const CreateTesterContactRequestSchema = z
  .object({
    first_name: requiredText(255).optional().openapi({ description: 'Stored exactly as sent.' }),
    last_name: requiredText(255).optional().openapi({ description: 'Stored exactly as sent.' }),
    phone: requiredText(32).optional().openapi({ description: 'E.164; stored as + and digits.' }),
    chat_username: requiredText(255).optional().openapi({ description: 'With or without @.' }),
    channel: requiredText().optional().openapi({ description: "Channel public key; the business's first channel by name when omitted." }),
  })
  .openapi('CreateTesterContactRequest');

export const CreateTesterContactResponseSchema = z
  .object({ contact: ContactSchema, conversation: z.object({ uuid: UuidSchema }) })
  .openapi('CreateTesterContactResponse');

export const TesterInboundRequestSchema = z
  .object({ conversation: ConversationReferenceSchema, text: MessageTextSchema })
  .openapi('TesterInboundRequest');

export const TesterInboundResponseSchema = z
  .object({
    conversation: z.object({ uuid: UuidSchema }),
    message: z.object({ uuid: UuidSchema, created_at: DateTimeSchema.openapi({ description: 'Virtual time.' }) }),
    cancelled_schedules: z.array(UuidSchema).openapi({ description: 'Schedules with cancel_on_customer_reply that this message cancelled.' }),
    ai_run: z
      .object({ action_group: z.object({ uuid: UuidSchema }) })
      .nullable()
      .openapi({ description: 'The AI reply queued when an AI is assigned and the conversation is not pending; null otherwise.' }),
  })
  .openapi('TesterInboundResponse');

export const AdvanceTesterClockRequestSchema = z
  .object({ advance_seconds: z.number().int().min(1).max(MAX_TESTER_CLOCK_ADVANCE_SECONDS) })
  .openapi('AdvanceTesterClockRequest');

export const AdvanceTesterClockResponseSchema = z.object({ tester_virtual_now: DateTimeSchema }).openapi('AdvanceTesterClockResponse');

export const TesterMessagesQuerySchema = z.object({
  conversation_uuid: UuidSchema,
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const TesterMessageSchema = z
  .object({
    uuid: UuidSchema,
    body: z.string(),
    content_type: z.string(),
    status: z.string().openapi({ description: 'simulated, or failed.' }),
    author: z.object({ type: z.string(), uuid: z.string().nullable() }).nullable(),
    created_at: DateTimeSchema.openapi({ description: 'Virtual time.' }),
  })
  .openapi('TesterMessage');

export const TesterMessagesResponseSchema = z.object({ items: z.array(TesterMessageSchema) }).openapi('TesterMessageList');

export type CreateTesterContactRequest = z.infer<typeof CreateTesterContactRequestSchema>;
export type TesterInboundRequest = z.infer<typeof TesterInboundRequestSchema>;
export type AdvanceTesterClockRequest = z.infer<typeof AdvanceTesterClockRequestSchema>;
export type TesterMessagesQuery = z.infer<typeof TesterMessagesQuerySchema>;
