import type { ConversationEvent, ConversationEventPublisher } from '@cmsg/conversations-domain';
import { sendKeyed } from '@cmsg/platform';
import type { Producer } from 'kafkajs';

export function kafkaEventPublisher(producer: Producer, topic: string): ConversationEventPublisher {
  return {
    publish: (conversationId: string, events: ConversationEvent[]) =>
      sendKeyed(
        producer,
        topic,
        conversationId,
        events.map((event) => ({ id: event.id, type: event.type, created_at: event.created_at, data: event.payload })),
      ),
  };
}
