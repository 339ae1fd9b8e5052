import type { InboundEvent } from '@cmsg/chat-platform';
import { withRequestIdHeader } from '@cmsg/platform/kafka';
import type { Producer } from 'kafkajs';
import { assertUnreachable } from '@cmsg/errors';

/** One value of the chat-inbound topic: a verified webhook event and when the gateway received it. */
export type ChatInboundValue = InboundEvent & { received_at: string };

export interface ChatInboundMessage {
  key: string;
  value: ChatInboundValue;
}

/** Where verified webhook events go; the webhook is acknowledged once this resolves. */
export interface ChatInboundPublisher {
  publish(messages: readonly ChatInboundMessage[]): Promise<void>;
}

/**
 * The key orders one party's events: `<phone_number_id>:<sender>`, the sender being the phone
 * digits, else the platform user id (a status names its recipient the same way), so a customer's
 * messages, the statuses of what we sent them and their marketing preferences are handled in
 * order; a template's status updates are keyed by the template.
 */
export function chatInboundKeyOf(event: InboundEvent): string {
  switch (event.kind) {
    case 'message':
      return `${event.phone_number_id}:${digitsOf(event.sender.wa_id) || event.sender.user_id || event.sender.username || event.message.id}`;
    case 'status':
      return `${event.phone_number_id}:${digitsOf(event.status.recipient_id) || event.status.recipient_user_id || event.status.id}`;
    case 'template_status':
      // One template's updates in order (APPROVED then PAUSED must not swap).
      return `waba:${event.business_account_id}:template:${event.update.message_template_id}`;
    case 'user_preference':
      // In order with the customer's messages: a STOP keyword and a resume keep their order.
      return `${event.phone_number_id}:${digitsOf(event.preference.wa_id) || event.preference.wa_id}`;
    default:
      return assertUnreachable(event, 'Unknown inbound event');
  }
}

export function chatInboundMessagesOf(events: readonly InboundEvent[], receivedAt: Date): ChatInboundMessage[] {
  return events.map((event) => ({ key: chatInboundKeyOf(event), value: { ...event, received_at: receivedAt.toISOString() } }));
}

function digitsOf(phone: string | undefined): string {
  return phone?.replace(/\D+/g, '') ?? '';
}

/** Produces to the chat-inbound topic with acks from all in-sync replicas, in one request. */
export class KafkaChatInboundPublisher implements ChatInboundPublisher {
  constructor(
    private readonly producer: Producer,
    private readonly topic: string,
  ) {}

  async publish(messages: readonly ChatInboundMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await this.producer.send({
      topic: this.topic,
      acks: -1,
      messages: messages.map((message) => withRequestIdHeader({ key: message.key, value: JSON.stringify(message.value) })),
    });
  }
}
