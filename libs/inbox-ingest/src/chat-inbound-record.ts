import { templateStatusUpdateValueSchema, userPreferenceSchema, webhookMessageSchema, webhookStatusSchema } from '@cmsg/chat-platform';
import { z } from 'zod';

const senderSchema = z.object({
  wa_id: z.string().optional(),
  user_id: z.string().optional(),
  username: z.string().optional(),
  profile_name: z.string().optional(),
});

/**
 * One value of the `chat-inbound` topic: an InboundEvent of @cmsg/chat-platform as the gateway
 * produced it after verifying the webhook signature, plus when the gateway received it. Times
 * are recomputed from the provider's own timestamps, so only the raw fields are kept here.
 */
export const ChatInboundRecordSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('message'), phone_number_id: z.string().min(1), sender: senderSchema, message: webhookMessageSchema, received_at: z.iso.datetime() }),
  z.object({ kind: z.literal('status'), phone_number_id: z.string().min(1), status: webhookStatusSchema, received_at: z.iso.datetime() }),
  z.object({ kind: z.literal('template_status'), business_account_id: z.string().min(1), update: templateStatusUpdateValueSchema, received_at: z.iso.datetime() }),
  z.object({ kind: z.literal('user_preference'), phone_number_id: z.string().min(1), preference: userPreferenceSchema, received_at: z.iso.datetime() }),
]);

export type ChatInboundRecord = z.infer<typeof ChatInboundRecordSchema>;
export type InboundMessageRecord = Extract<ChatInboundRecord, { kind: 'message' }>;
export type InboundStatusRecord = Extract<ChatInboundRecord, { kind: 'status' }>;
export type TemplateStatusRecord = Extract<ChatInboundRecord, { kind: 'template_status' }>;
export type UserPreferenceRecord = Extract<ChatInboundRecord, { kind: 'user_preference' }>;

/** The command stream's decode step: a value that does not parse goes to the dead-letter path. */
export function parseChatInboundRecord(value: unknown): ChatInboundRecord {
  return ChatInboundRecordSchema.parse(value);
}
