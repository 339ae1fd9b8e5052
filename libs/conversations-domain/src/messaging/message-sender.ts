import type { ChannelCredentials, OutboundMessage, SendMessageResult } from '@cmsg/chat-platform';

/**
 * The chat platform's send (CloudApiClient in production). Contract the use case relies on:
 * SEND_FAILED once the request may have left the process (the outcome at the provider is then
 * unknown or negative); any other catalog error (PREPARE_FAILED, BSUID_SEND_DISABLED,
 * CHANNEL_NOT_CONFIGURED) means nothing was sent.
 */
export interface MessageSender {
  sendMessage(channel: ChannelCredentials, message: OutboundMessage): Promise<SendMessageResult>;
}
