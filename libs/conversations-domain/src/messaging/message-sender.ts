import type { ChannelCredentials, OutboundMessage, SendMessageResult } from '@cmsg/chat-platform';

/**
 * The chat platform's send (CloudApiClient in production). Contract the use case relies on: once
 * the request may have left the process (the outcome at the provider is then unknown or negative)
 * the error carries providerCode (the provider's code, or null) and is SEND_FAILED or the provider
 * outcome it maps to (WINDOW_CLOSED, RECIPIENT_UNDELIVERABLE, MARKETING_LIMIT_REACHED,
 * CONTACT_OPTED_OUT, RECIPIENT_IN_EXPERIMENT); rate limits are retried inside the sender. Any
 * other catalog error (PREPARE_FAILED, BSUID_SEND_DISABLED, CHANNEL_NOT_CONFIGURED) means nothing was sent.
 */
export interface MessageSender {
  sendMessage(channel: ChannelCredentials, message: OutboundMessage, pacing?: SendPacing): Promise<SendMessageResult>;
}

/**
 * What the send engine (libs/send-engine, docs/broadcasts.md) paces a provider call by: the channel
 * and its limits, the contact (pair rate, messaging limit) and whether the send is live traffic or
 * a broadcast's. MESSAGING_LIMIT_REACHED (with retryAfterSeconds) is raised before any call.
 */
export interface SendPacing {
  businessId: string;
  channelId: string;
  maxMessagesPerSecond: number;
  /** Unique contacts a business-initiated template may reach in a moving 24 h (null: unlimited). */
  messagingLimit: number | null;
  contactId: string;
  /** A template: it takes a messaging-limit unit for a contact not reached in the last 24 h. */
  isTemplate: boolean;
  broadcast?: { uuid: string; maxPerSecond: number };
}
