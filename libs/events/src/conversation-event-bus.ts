import { CUSTOMER_MESSAGE_RECEIVED, type ConversationEventEnvelope } from '@cmsg/conversation-commands';
import type { OutboxEntry } from '@cmsg/dal';

/**
 * The `conversation-events` topic (key = conversation uuid): what the internal consumers read. The
 * apps wire the Kafka one (kafkaConversationEventBus of @cmsg/command-stream).
 */
export interface ConversationEventBus {
  publish(conversationId: string, message: ConversationEventEnvelope): Promise<void>;
}

type Party = { uuid?: string | null } | null | undefined;

/**
 * The topic message of an entry, for the types the topic carried before events existed, in the
 * same form (the scheduler cancels cancel_on_customer_reply schedules on a customer message);
 * null for the others. Same id as the event.
 */
export function conversationEventMessageOf(entry: OutboxEntry, businessId: string): ConversationEventEnvelope | null {
  if (!entry.conversation_id) return null;
  const data = entry.data;
  const created_at = entry.created_at.toISOString();
  const change = (fields: Record<string, unknown>) => ({
    id: entry.id,
    type: entry.type,
    created_at,
    data: { business_id: businessId, conversation_uuid: entry.conversation_id, ...fields, actor: { type: entry.author.type, uuid: entry.author.uuid }, occurred_at: created_at },
  });
  switch (entry.type) {
    case 'message.received':
      return {
        id: entry.id,
        type: CUSTOMER_MESSAGE_RECEIVED,
        created_at,
        data: { business_id: businessId, conversation_uuid: entry.conversation_id, message_uuid: data['uuid'], content_type: data['content_type'], sent_at: data['created_at'] },
      };
    case 'conversation.inbox_status_changed':
      return change({ from: data['from'], to: data['to'], pending_reason: data['reason'] ?? null });
    case 'conversation.assignment_changed':
    case 'conversation.mailbox_changed':
      return change({ from: (data['from'] as Party)?.uuid ?? null, to: (data['to'] as Party)?.uuid ?? null });
    case 'conversation.tags_changed':
      return change({ added: data['added'], removed: data['removed'] });
    default:
      return null;
  }
}
