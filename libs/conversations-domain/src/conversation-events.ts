import { randomUUID } from 'node:crypto';
import type { BusinessScope, OutboxEvent } from '@cmsg/dal';

/** An event about one conversation, published keyed by its uuid (topic conversation-events). */
export type ConversationEvent = OutboxEvent;

/** Port to the event bus; the service wires it to Kafka. */
export interface ConversationEventPublisher {
  publish(conversationId: string, events: ConversationEvent[]): Promise<void>;
}

export const INBOX_STATUS_CHANGED = 'conversation.inbox_status_changed';
export const ASSIGNMENT_CHANGED = 'conversation.assignment_changed';
export const MAILBOX_CHANGED = 'conversation.mailbox_changed';
export const TAGS_CHANGED = 'conversation.tags_changed';

export function newConversationEvent(type: string, payload: Record<string, unknown>, now = new Date()): ConversationEvent {
  return { id: randomUUID(), type, payload, created_at: now };
}

/** The event of a change of the conversation: what changed, who changed it and when. */
export function conversationChangeEvent(
  type: string,
  scope: BusinessScope,
  conversationId: string,
  change: Record<string, unknown>,
  actor: { type: string; uuid: string | null } | null,
  now: Date,
): ConversationEvent {
  return newConversationEvent(type, { business_id: scope.businessId, conversation_uuid: conversationId, ...change, actor, occurred_at: now.toISOString() }, now);
}
