import type { ConversationContext } from '@cmsg/proto';

/**
 * Whether an AI run queued by a customer message should still answer when it starts (SPEC 3.1,
 * CONTRACT 7): the conversation is still AI-owned and not pending, and no newer customer message
 * arrived meanwhile (that message's own run answers the whole burst, so a quick burst gets one
 * reply instead of one per message).
 */
export function autoReplyStillDue(context: Pick<ConversationContext, 'ai_employee_uuid' | 'inbox_status' | 'last_inbound_message_uuid'>, messageUuid: string): boolean {
  if (!context.ai_employee_uuid || context.inbox_status === 'pending') return false;
  return context.last_inbound_message_uuid === undefined || context.last_inbound_message_uuid === messageUuid;
}
