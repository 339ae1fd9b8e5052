import type { BusinessScope } from '@cmsg/dal';
import type { ConversationStatus } from '@cmsg/proto';
import { conversationClockOffsetMs } from '../conversation/business-clock';
import { loadReferencedObjects, tagsOf } from './conversation-references';
import { conversationNow, messagingWindow } from '../conversation/messaging-window';
import { type ConversationReference, resolveConversationReference } from '../conversation/resolve-conversation-reference';

/** SPEC 2.4 / 4.5: the full snapshot; the window is computed at the conversation's own now. */
export async function getConversationStatus(
  scope: BusinessScope,
  reference: ConversationReference,
  realNow: number = Date.now(),
): Promise<ConversationStatus> {
  const { conversation, contact } = await resolveConversationReference(scope, reference);
  const [testerClockOffsetMs, objects] = await Promise.all([conversationClockOffsetMs(scope, conversation.is_tester), loadReferencedObjects(scope, [conversation])]);
  const now = conversationNow(conversation.is_tester, testerClockOffsetMs, realNow);
  const aiEmployee = objects.aiEmployee(conversation.ai_employee_id);
  const lastMessage = conversation.last_message;
  return {
    conversation: { uuid: conversation._id, phone: contact.phone ?? undefined, chat_user_id: contact.chat_user_id ?? undefined },
    window: messagingWindow(conversation.last_inbound_at, now),
    assignment: { ai_employee: aiEmployee },
    mailbox: objects.mailbox(conversation.mailbox_id),
    tags: tagsOf(objects, conversation.tag_ids),
    inbox_status: conversation.inbox_status,
    last_message: lastMessage
      ? { uuid: lastMessage.uuid, is_from_customer: lastMessage.is_from_customer, created_at: lastMessage.created_at.toISOString() }
      : undefined,
    is_tester: conversation.is_tester,
    tester_virtual_now: conversation.is_tester ? new Date(now).toISOString() : undefined,
  };
}
