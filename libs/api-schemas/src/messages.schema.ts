import { DateTimeSchema, UuidSchema } from './common.schema';
import { ConversationReferenceSchema } from './conversation-reference.schema';
import { MessageTextSchema, QuickReplyReferenceSchema, TranscriptionSchema, templateSendFields } from './message-content.schema';
import { jsonSchemaKeywords, z } from './zod';

export const SendTextMessageRequestSchema = z
  .object({
    conversation: ConversationReferenceSchema,
    text: MessageTextSchema,
    file_uuid: UuidSchema.optional().openapi({ description: 'A confirmed upload to send; text becomes its caption.' }),
    transcription: TranscriptionSchema.optional(),
  })
  .refine((request) => request.transcription === undefined || request.file_uuid !== undefined, {
    path: ['transcription'],
    message: 'only with file_uuid',
  })
  .openapi('SendTextMessageRequest', jsonSchemaKeywords({ dependentRequired: { transcription: ['file_uuid'] } }));

export const SendQuickReplyRequestSchema = z
  .object({ conversation: ConversationReferenceSchema, quick_reply: QuickReplyReferenceSchema })
  .openapi('SendQuickReplyRequest');

export const SendTemplateRequestSchema = z.object({ conversation: ConversationReferenceSchema, ...templateSendFields }).openapi('SendTemplateRequest');

export const SentMessageStatusSchema = z
  .enum(['sent', 'simulated'])
  .openapi('SentMessageStatus', { description: 'sent: accepted by the channel provider; simulated: a tester conversation, nothing left the service.' });

export const SentMessageSchema = z.object({ uuid: UuidSchema, status: SentMessageStatusSchema, created_at: DateTimeSchema }).openapi('SentMessage');

export const SendMessageResponseSchema = z.object({ message: SentMessageSchema }).openapi('SendMessageResponse');

export const SendQuickReplyResponseSchema = z
  .object({
    message: SentMessageSchema.openapi({ description: 'The first message.' }),
    messages: z.array(SentMessageSchema).min(1).openapi({ description: 'One message per quick reply action, in order.' }),
  })
  .openapi('SendQuickReplyResponse');

export type SendTextMessageRequest = z.infer<typeof SendTextMessageRequestSchema>;
export type SendQuickReplyRequest = z.infer<typeof SendQuickReplyRequestSchema>;
export type SendTemplateRequest = z.infer<typeof SendTemplateRequestSchema>;
export type SentMessage = z.infer<typeof SentMessageSchema>;
export type SendMessageResponse = z.infer<typeof SendMessageResponseSchema>;
export type SendQuickReplyResponse = z.infer<typeof SendQuickReplyResponseSchema>;
