import type { BusinessScope } from '@cmsg/dal';
import type { ConversationStatus } from '@cmsg/proto';
import { type BusinessDirectory, conversationClockOffsetMs } from '../conversation/business-clock';
import { loadReferencedObjects, type ReferencedObjectStores, tagsOf } from './conversation-references';
import { conversationNow, messagingWindow } from '../conversation/messaging-window';
import { type ConversationLookup, type ConversationReference, resolveConversationReference } from '../conversation/conversation-resolver';

/** What the status reads: the conversation and its contact, the business's tester clock, the names it points to. */
export interface ConversationStatusPorts {
  lookup: ConversationLookup;
  businesses: BusinessDirectory;
  references: ReferencedObjectStores;
}

/** SPEC 2.4 / 4.5: the full snapshot; the window is computed at the conversation's own now. */
export async function getConversationStatus(
  ports: ConversationStatusPorts,
  scope: BusinessScope,
  reference: ConversationReference,
  realNow: number = Date.now(),
): Promise<ConversationStatus> {
  const { conversation, contact } = await resolveConversationReference(ports.lookup, scope, reference);
  const [testerClockOffsetMs, objects] = await Promise.all([conversationClockOffsetMs(ports.businesses, scope, conversation.is_tester), loadReferencedObjects(ports.references, scope, [conversation])]);
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
