import { type AiRunCommand, createAiRunCommand } from '@cmsg/conversation-commands';
import { inboxIds } from './name-based-ids';
import type { SenderConversation } from './sender-conversation';

/** CONTRACT 6/7: an assigned AI answers a customer unless the conversation waits for a human. */
export function shouldQueueAiRun(conversation: Pick<SenderConversation, 'ai_employee_id' | 'inbox_status' | 'is_tester'>): boolean {
  return Boolean(conversation.ai_employee_id) && conversation.inbox_status !== 'pending' && !conversation.is_tester;
}

/**
 * The AI run after an inbound message. Its group uuid derives from the message, so a redelivered
 * webhook queues the same group again and the runner, which keys groups by uuid, runs it once.
 * No API token is behind it: token_uuid is empty and the source is run_ai (the runner's sources
 * are action_group and run_ai). It names the message it answers: the runner skips it (a no-op)
 * when a newer customer message arrived before it started, since that message's own run answers
 * the whole burst (docs/inbound-and-files.md).
 */
export function inboundAiRunCommand(input: { businessId: string; conversationUuid: string; messageId: string; requestId: string | null; now: Date }): AiRunCommand {
  return createAiRunCommand({
    group_uuid: inboxIds.aiRunGroup(input.messageId),
    business_id: input.businessId,
    token_uuid: '',
    request_id: input.requestId,
    conversation_uuid: input.conversationUuid,
    created_at: input.now.toISOString(),
    in_reply_to_message_uuid: input.messageId,
  });
}
