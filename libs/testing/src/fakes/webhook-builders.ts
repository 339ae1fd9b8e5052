import { createHmac, randomBytes } from 'node:crypto';

/**
 * Inbound Cloud API webhooks as the provider would POST them to `/webhooks/chat`, for tests that
 * play the customer. Shapes follow the public webhook reference (see @cmsg/chat-platform's schema).
 */

export interface SignedWebhookRequest {
  /** The exact bytes to POST; the signature covers them. */
  body: string;
  headers: { 'content-type': 'application/json'; 'x-hub-signature-256': string };
}

/** Serialises the payload once and signs those bytes: `X-Hub-Signature-256: sha256=<hex>`. */
export function signedWebhookRequest(payload: unknown, appSecret: string): SignedWebhookRequest {
  const body = JSON.stringify(payload);
  const signature = createHmac('sha256', appSecret).update(body).digest('hex');
  return { body, headers: { 'content-type': 'application/json', 'x-hub-signature-256': `sha256=${signature}` } };
}

/** Who writes: a phone (`from`), a BSUID (`from_user_id`) or both. */
export interface WebhookSender {
  from?: string;
  from_user_id?: string;
  name?: string;
  username?: string;
}

export interface WebhookChannel {
  phone_number_id: string;
  display_phone_number?: string;
  /** The WhatsApp Business Account id (`entry[].id`). */
  waba_id?: string;
}

export interface InboundMessageInput extends WebhookChannel, WebhookSender {
  /** The message fields beyond from/id/timestamp, e.g. `{ type: 'text', text: { body } }`. */
  message: { type: string } & Record<string, unknown>;
  id?: string;
  timestamp?: Date | number;
}

export interface InboundTextInput extends WebhookChannel, WebhookSender {
  text: string;
  id?: string;
  timestamp?: Date | number;
}

export type InboundMediaType = 'image' | 'audio' | 'video' | 'document' | 'sticker';

export interface InboundMediaInput extends WebhookChannel, WebhookSender {
  media_type: InboundMediaType;
  /** From FakeCloudApi.registerMedia, so the media can really be fetched. */
  media: { id: string; mime_type: string; sha256?: string; caption?: string; filename?: string; voice?: boolean };
  id?: string;
  timestamp?: Date | number;
}

export interface ButtonReplyInput extends WebhookChannel, WebhookSender {
  button: { id: string; title: string };
  /** The `wamid.` of the interactive message the customer answered. */
  context_id?: string;
  id?: string;
  timestamp?: Date | number;
}

export interface StatusInput extends WebhookChannel {
  /** The `wamid.` id the send returned. */
  message_id: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  recipient_id?: string;
  recipient_user_id?: string;
  timestamp?: Date | number;
  errors?: { code: number; title?: string; message?: string; error_data?: { details?: string } }[];
  /** As the platform prices the message (CONTRACT 10.3), e.g. `{ billable: true, pricing_model: 'PMP', category: 'utility' }`. */
  pricing?: { billable?: boolean; pricing_model?: string; category?: string };
}

export function fakeWamid(): string {
  return `wamid.${randomBytes(24).toString('base64url')}`;
}

/** Webhook timestamps: unix seconds as a string. */
export function webhookTimestamp(at: Date | number = new Date()): string {
  return String(typeof at === 'number' ? Math.floor(at) : Math.floor(at.getTime() / 1000));
}

export function inboundMessageWebhook(input: InboundMessageInput) {
  if (!input.from && !input.from_user_id) throw new Error('inboundMessageWebhook needs from or from_user_id');
  const contact = {
    profile: { name: input.name ?? 'Test Customer', ...(input.username ? { username: input.username } : {}) },
    ...(input.from ? { wa_id: input.from } : {}),
    ...(input.from_user_id ? { user_id: input.from_user_id } : {}),
  };
  const message = {
    ...(input.from ? { from: input.from } : {}),
    ...(input.from_user_id ? { from_user_id: input.from_user_id } : {}),
    id: input.id ?? fakeWamid(),
    timestamp: webhookTimestamp(input.timestamp),
    ...input.message,
  };
  return messagesWebhook(input, { contacts: [contact], messages: [message] });
}

export function inboundTextWebhook(input: InboundTextInput) {
  return inboundMessageWebhook({ ...input, message: { type: 'text', text: { body: input.text } } });
}

export function inboundMediaWebhook(input: InboundMediaInput) {
  return inboundMessageWebhook({ ...input, message: { type: input.media_type, [input.media_type]: { ...input.media } } });
}

/** A reply-button tap on an interactive message we sent. */
export function inboundButtonReplyWebhook(input: ButtonReplyInput) {
  return inboundMessageWebhook({
    ...input,
    message: {
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: input.button },
      ...(input.context_id ? { context: { id: input.context_id } } : {}),
    },
  });
}

export function statusWebhook(input: StatusInput) {
  const status = {
    id: input.message_id,
    status: input.status,
    timestamp: webhookTimestamp(input.timestamp),
    ...(input.recipient_id ? { recipient_id: input.recipient_id } : {}),
    ...(input.recipient_user_id ? { recipient_user_id: input.recipient_user_id } : {}),
    ...(input.errors ? { errors: input.errors } : {}),
    ...(input.pricing ? { pricing: input.pricing } : {}),
  };
  return messagesWebhook(input, { statuses: [status] });
}

function messagesWebhook(channel: WebhookChannel, value: Record<string, unknown>) {
  return {
    object: 'whatsapp_business_account' as const,
    entry: [
      {
        id: channel.waba_id ?? '100000000000001',
        changes: [
          {
            field: 'messages' as const,
            value: {
              messaging_product: 'whatsapp' as const,
              metadata: { display_phone_number: channel.display_phone_number ?? '15550000000', phone_number_id: channel.phone_number_id },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

export interface TemplateStatusInput {
  /** The WhatsApp Business Account id (the entry id). */
  waba_id: string;
  event: string;
  /** Sent as a number, as the provider does. */
  message_template_id: number;
  message_template_name: string;
  message_template_language: string;
  reason?: string | null;
}

/** A `message_template_status_update` webhook, shaped as the provider's documented example. */
export function templateStatusWebhook(input: TemplateStatusInput) {
  const { waba_id, ...value } = input;
  return {
    object: 'whatsapp_business_account' as const,
    entry: [{ id: waba_id, time: Math.floor(Date.now() / 1000), changes: [{ field: 'message_template_status_update', value: { reason: null, ...value } }] }],
  };
}

export interface UserPreferenceInput extends WebhookChannel {
  /** The customer's phone digits. */
  wa_id: string;
  value: 'stop' | 'resume';
  name?: string;
  timestamp?: Date | number;
}

/** A `user_preferences` webhook (a customer stopped or resumed marketing messages), shaped as the provider's reference. */
export function userPreferencesWebhook(input: UserPreferenceInput) {
  const detail = input.value === 'stop' ? 'User requested to stop marketing messages' : 'User requested to resume marketing messages';
  return {
    object: 'whatsapp_business_account' as const,
    entry: [
      {
        id: input.waba_id ?? '100000000000001',
        changes: [
          {
            field: 'user_preferences',
            value: {
              messaging_product: 'whatsapp' as const,
              metadata: { display_phone_number: input.display_phone_number ?? '15550000000', phone_number_id: input.phone_number_id },
              contacts: [{ profile: { name: input.name ?? 'Test Customer' }, wa_id: input.wa_id }],
              user_preferences: [{ wa_id: input.wa_id, detail, category: 'marketing_messages', value: input.value, timestamp: Number(webhookTimestamp(input.timestamp)) }],
            },
          },
        ],
      },
    ],
  };
}
