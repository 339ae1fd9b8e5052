import { z } from 'zod';

/**
 * The inbound Cloud API webhook (`POST /webhooks/chat`). Parsing is deliberately tolerant:
 * unknown fields are dropped, optional fields stay optional, and message types are open strings,
 * because refusing a delivery loses customer messages while the provider keeps adding fields.
 * Contacts who adopted a username may come without a phone: then only the user id (BSUID) is there.
 */

const mediaObjectSchema = z.object({
  id: z.string(),
  mime_type: z.string(),
  sha256: z.string().optional(),
  caption: z.string().optional(),
  filename: z.string().optional(),
  voice: z.boolean().optional(),
});

const providerErrorSchema = z.object({
  code: z.number(),
  title: z.string().optional(),
  message: z.string().optional(),
  error_data: z.object({ details: z.string().optional() }).optional(),
});

export const webhookContactSchema = z.object({
  profile: z.object({ name: z.string().optional(), username: z.string().optional() }).optional(),
  wa_id: z.string().optional(),
  user_id: z.string().optional(),
  username: z.string().optional(),
});

export const webhookMessageSchema = z.object({
  /** The sender's phone (digits); absent for a username user whose phone is not shared. */
  from: z.string().optional(),
  /** The sender's business-scoped user id (BSUID). */
  from_user_id: z.string().optional(),
  id: z.string(),
  /** Unix seconds, as a string. */
  timestamp: z.string(),
  /** text, image, audio, video, document, sticker, interactive, button, location, reaction, unsupported, ... */
  type: z.string(),
  text: z.object({ body: z.string() }).optional(),
  image: mediaObjectSchema.optional(),
  audio: mediaObjectSchema.optional(),
  video: mediaObjectSchema.optional(),
  document: mediaObjectSchema.optional(),
  sticker: mediaObjectSchema.optional(),
  /** A tap on one of our reply buttons. */
  interactive: z
    .object({
      type: z.string(),
      button_reply: z.object({ id: z.string(), title: z.string() }).optional(),
      list_reply: z.object({ id: z.string(), title: z.string(), description: z.string().optional() }).optional(),
    })
    .optional(),
  /** A tap on a template quick-reply button. */
  button: z.object({ text: z.string(), payload: z.string().optional() }).optional(),
  /** Set when the customer replied to a specific message. */
  context: z.object({ id: z.string().optional(), from: z.string().optional() }).optional(),
  errors: z.array(providerErrorSchema).optional(),
});

export const webhookStatusSchema = z.object({
  /** The `wamid.` id we got back when sending. */
  id: z.string(),
  /** sent, delivered, read, failed (and newer values). */
  status: z.string(),
  timestamp: z.string(),
  recipient_id: z.string().optional(),
  recipient_user_id: z.string().optional(),
  errors: z.array(providerErrorSchema).optional(),
  /** How the platform prices the message (on sent / delivered statuses); kept on the message (CONTRACT 10.3). */
  pricing: z.object({ billable: z.boolean().optional(), pricing_model: z.string().optional(), category: z.string().optional() }).optional(),
});

export const webhookMessagesValueSchema = z.object({
  messaging_product: z.literal('whatsapp'),
  metadata: z.object({ display_phone_number: z.string().optional(), phone_number_id: z.string() }),
  contacts: z.array(webhookContactSchema).optional(),
  messages: z.array(webhookMessageSchema).optional(),
  statuses: z.array(webhookStatusSchema).optional(),
  errors: z.array(providerErrorSchema).optional(),
});

/**
 * A template's review outcome (`message_template_status_update`); the entry id is the WhatsApp
 * Business Account. The provider sends the id as a number; it is kept as a string.
 */
export const templateStatusUpdateValueSchema = z.object({
  /** APPROVED, REJECTED, PAUSED, DISABLED, and others (PENDING_DELETION, FLAGGED, ...). */
  event: z.string(),
  message_template_id: z.union([z.number(), z.string()]).transform(String),
  message_template_name: z.string(),
  message_template_language: z.string(),
  reason: z.string().nullable().optional(),
});

export const TEMPLATE_STATUS_UPDATE_FIELD = 'message_template_status_update';

/**
 * A customer stopped or resumed marketing messages in the chat app (`user_preferences`). The
 * provider documents the timestamp as unix seconds and sends it as a number; kept as a string like
 * the other webhook timestamps.
 */
export const userPreferenceSchema = z.object({
  wa_id: z.string().min(1),
  detail: z.string().optional(),
  /** `marketing_messages` is the only category today. */
  category: z.string(),
  /** `stop` or `resume`; other values are skipped. */
  value: z.string(),
  timestamp: z.union([z.number(), z.string()]).transform(String),
});

export const userPreferencesValueSchema = z.object({
  metadata: z.object({ display_phone_number: z.string().optional(), phone_number_id: z.string() }),
  user_preferences: z.array(userPreferenceSchema),
});

export const USER_PREFERENCES_FIELD = 'user_preferences';

const messagesChangeSchema = z.object({ field: z.literal('messages'), value: webhookMessagesValueSchema });
/** Other subscribed fields (template status, account updates...) arrive on the same URL; kept opaque. */
const otherChangeSchema = z.object({ field: z.string().refine((field) => field !== 'messages'), value: z.unknown() });

export const webhookPayloadSchema = z.object({
  object: z.literal('whatsapp_business_account'),
  entry: z.array(
    z.object({
      id: z.string(),
      changes: z.array(z.union([messagesChangeSchema, otherChangeSchema])),
    }),
  ),
});

export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;
export type WebhookMessagesValue = z.infer<typeof webhookMessagesValueSchema>;
export type WebhookContact = z.infer<typeof webhookContactSchema>;
export type WebhookMessage = z.infer<typeof webhookMessageSchema>;
export type WebhookStatus = z.infer<typeof webhookStatusSchema>;
export type TemplateStatusUpdate = z.infer<typeof templateStatusUpdateValueSchema>;
export type UserPreference = z.infer<typeof userPreferenceSchema>;

/** The sender as one flat record; the provider always sends wa_id, user_id or both. */
export interface InboundSender {
  wa_id?: string;
  user_id?: string;
  username?: string;
  profile_name?: string;
}

export type InboundEvent =
  | { kind: 'message'; phone_number_id: string; sender: InboundSender; message: WebhookMessage; sent_at: Date }
  | { kind: 'status'; phone_number_id: string; status: WebhookStatus; at: Date }
  | { kind: 'template_status'; business_account_id: string; update: TemplateStatusUpdate }
  | { kind: 'user_preference'; phone_number_id: string; preference: UserPreference };

/**
 * One event per inbound message, per status, per template status update and per user preference,
 * in payload order; other change fields are skipped, and so is a template update or preferences
 * value that does not parse (the rest of the payload still counts).
 */
export function inboundEventsOf(payload: WebhookPayload): InboundEvent[] {
  const events: InboundEvent[] = [];
  for (const entry of payload.entry) {
    for (const change of entry.changes) {
      if (change.field === TEMPLATE_STATUS_UPDATE_FIELD) {
        const update = templateStatusUpdateValueSchema.safeParse(change.value);
        if (update.success) events.push({ kind: 'template_status', business_account_id: entry.id, update: update.data });
        continue;
      }
      if (change.field === USER_PREFERENCES_FIELD) {
        const value = userPreferencesValueSchema.safeParse(change.value);
        if (!value.success) continue;
        for (const preference of value.data.user_preferences) {
          events.push({ kind: 'user_preference', phone_number_id: value.data.metadata.phone_number_id, preference });
        }
        continue;
      }
      if (!isMessagesChange(change)) continue;
      const { value } = change;
      const phoneNumberId = value.metadata.phone_number_id;
      for (const message of value.messages ?? []) {
        events.push({
          kind: 'message',
          phone_number_id: phoneNumberId,
          sender: senderOf(message, value.contacts ?? []),
          message,
          sent_at: webhookTimestampToDate(message.timestamp),
        });
      }
      for (const status of value.statuses ?? []) {
        events.push({ kind: 'status', phone_number_id: phoneNumberId, status, at: webhookTimestampToDate(status.timestamp) });
      }
    }
  }
  return events;
}

type WebhookChange = WebhookPayload['entry'][number]['changes'][number];

/** The schema already tied `field: 'messages'` to the messages value shape; this tells TypeScript. */
function isMessagesChange(change: WebhookChange): change is z.infer<typeof messagesChangeSchema> {
  return change.field === 'messages';
}

/** Webhook timestamps are unix seconds as strings. */
export function webhookTimestampToDate(timestamp: string): Date {
  const seconds = Number(timestamp);
  return Number.isFinite(seconds) ? new Date(seconds * 1000) : new Date(NaN);
}

function senderOf(message: WebhookMessage, contacts: WebhookContact[]): InboundSender {
  const contact =
    contacts.find((candidate) => (message.from !== undefined && candidate.wa_id === message.from) || (message.from_user_id !== undefined && candidate.user_id === message.from_user_id)) ??
    (contacts.length === 1 ? contacts[0] : undefined);
  const waId = message.from ?? contact?.wa_id;
  const userId = message.from_user_id ?? contact?.user_id;
  const username = contact?.profile?.username ?? contact?.username;
  const profileName = contact?.profile?.name;
  return {
    ...(waId ? { wa_id: waId } : {}),
    ...(userId ? { user_id: userId } : {}),
    ...(username ? { username } : {}),
    ...(profileName ? { profile_name: profileName } : {}),
  };
}
