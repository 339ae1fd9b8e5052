import { randomUUID } from 'node:crypto';

/** An event about one conversation, published keyed by its uuid (topic conversation-events). */
export interface ConversationEvent {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  created_at: Date;
}

/** Port to the event bus; the service wires it to Kafka. */
export interface ConversationEventPublisher {
  publish(conversationId: string, events: ConversationEvent[]): Promise<void>;
}

export function newConversationEvent(type: string, payload: Record<string, unknown>, now = new Date()): ConversationEvent {
  return { id: randomUUID(), type, payload, created_at: now };
}
