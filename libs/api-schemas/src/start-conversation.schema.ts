import { UuidSchema } from './common.schema';
import { UpsertContactRequestSchema } from './contact-write.schema';
import { templateSendFields } from './message-content.schema';
import { SentMessageSchema } from './messages.schema';
import { NoteTextSchema } from './notes.schema';
import { z } from './zod';

/** Up to this many tags per start, as an action group's assign_label takes them. */
export const MAX_START_TAGS = 20;

const upsertFields = UpsertContactRequestSchema.shape;

export const StartContactSchema = z
  .union([
    z.object({ uuid: UuidSchema }).strict(),
    z
      .object({
        phone: upsertFields.phone.unwrap(),
        channel: upsertFields.channel,
        first_name: upsertFields.first_name,
        last_name: upsertFields.last_name,
        external_id: upsertFields.external_id,
      })
      .strict(),
  ])
  .openapi('StartContact', { description: 'An existing contact by uuid, or the identity to upsert as POST /contacts does.' });

export const StartConversationRequestSchema = z
  .object({
    contact: StartContactSchema,
    ...templateSendFields,
    ai_employee: UuidSchema.optional().openapi({ description: 'Assigned after the send, without running it.' }),
    mailbox: UuidSchema.optional(),
    tags: z.array(UuidSchema).max(MAX_START_TAGS).optional().openapi({ description: 'Tag uuids added to the conversation after the send.' }),
    note: NoteTextSchema.optional(),
  })
  .openapi('StartConversationRequest');

export const StartConversationResponseSchema = z
  .object({
    conversation: z.object({ uuid: UuidSchema }),
    contact: z.object({ uuid: UuidSchema, created: z.boolean() }),
    message: SentMessageSchema,
  })
  .openapi('StartConversationResponse');

export type StartConversationRequest = z.infer<typeof StartConversationRequestSchema>;
export type StartConversationResponse = z.infer<typeof StartConversationResponseSchema>;
