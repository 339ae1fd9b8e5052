import { z } from 'zod';

/*
 * Facts about conversations on the `conversation-events` topic (key = conversation uuid), as the
 * conversations service's outbox relay publishes them: `{id, type, created_at, data}`, at least
 * once (a crash before the outbox entry is removed publishes it again with the same id).
 */

/** A new customer message was recorded (inbound chat webhook); data: CustomerMessageReceivedData. */
export const CUSTOMER_MESSAGE_RECEIVED = 'conversation.customer_message_received';

export const ConversationEventEnvelopeSchema = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  /** When the fact was recorded (the service's clock). */
  created_at: z.iso.datetime(),
  data: z.record(z.string(), z.unknown()),
});

export type ConversationEventEnvelope = z.infer<typeof ConversationEventEnvelopeSchema>;

export const CustomerMessageReceivedDataSchema = z.object({
  business_id: z.string().min(1),
  conversation_uuid: z.string().min(1),
  message_uuid: z.string().min(1),
  content_type: z.string(),
  /** The provider's send time (trusted up to a small clock skew). */
  sent_at: z.iso.datetime(),
});

export type CustomerMessageReceivedData = z.infer<typeof CustomerMessageReceivedDataSchema>;
