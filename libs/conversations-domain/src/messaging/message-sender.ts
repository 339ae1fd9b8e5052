import type { ChannelCredentials, OutboundMessage, SendMessageResult } from '@cmsg/chat-platform';
import type { ClaimBeforeCall, SendPacing } from '@cmsg/send-engine';

/**
 * The chat platform's send (CloudApiClient in production). Contract the use case relies on: once
 * the request may have left the process (the outcome at the provider is then unknown or negative)
 * the error carries providerCode (the provider's code, or null) and is SEND_FAILED or the provider
 * outcome it maps to (WINDOW_CLOSED, RECIPIENT_UNDELIVERABLE, MARKETING_LIMIT_REACHED,
 * CONTACT_OPTED_OUT, RECIPIENT_IN_EXPERIMENT); rate limits are retried inside the sender. Any
 * other catalog error (PREPARE_FAILED, BSUID_SEND_DISABLED, CHANNEL_NOT_CONFIGURED) means nothing was sent.
 * `claim` is called once, after the send's pacing and just before its rate slot and first call; when it answers
 * false, nothing is called and SendAlreadyClaimed is thrown.
 */
export interface MessageSender {
  sendMessage(channel: ChannelCredentials, message: OutboundMessage, pacing?: SendPacing, claim?: ClaimBeforeCall): Promise<SendMessageResult>;
}

/** What the send engine paces a provider call by (libs/send-engine, docs/broadcasts.md). */
export type { SendPacing } from '@cmsg/send-engine';
