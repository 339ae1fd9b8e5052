import type { ConversationEventEnvelope } from '@cmsg/conversation-commands';
import { sendKeyed } from '@cmsg/platform/kafka';
import type { Producer } from 'kafkajs';

/**
 * The `conversation-events` topic (key = conversation uuid, so one conversation's events keep their
 * order): the Kafka side of the event recorder's ConversationEventBus port (@cmsg/events).
 */
export function kafkaConversationEventBus(producer: Producer, topic: string): { publish(conversationId: string, message: ConversationEventEnvelope): Promise<void> } {
  return { publish: (conversationId, message) => sendKeyed(producer, topic, conversationId, [message]) };
}
