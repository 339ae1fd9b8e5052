import type { BusinessScope } from '@cmsg/dal';
import type { ConversationContext } from '@cmsg/proto';
import { loadPendingSchedule } from '../ai-assignment/pending-schedule';
import { clockOf, loadBusiness } from '../conversation/business-clock';
import { conversationNow, messagingWindow } from '../conversation/messaging-window';
import { type ConversationReference, resolveConversationReference } from '../conversation/resolve-conversation-reference';

/**
 * GetConversationContext: what the actions-runner checks before and while running actions. The
 * window is seen at the conversation's own now (virtual for tester conversations).
 */
export async function getConversationContext(scope: BusinessScope, reference: ConversationReference, realNow: number = Date.now()): Promise<ConversationContext> {
  const { conversation, contact } = await resolveConversationReference(scope, reference);
  const [business, pendingSchedule] = await Promise.all([loadBusiness(scope), loadPendingSchedule(scope, conversation)]);
  const now = conversationNow(conversation.is_tester, clockOf(business).testerClockOffsetMs, realNow);
  return {
    uuid: conversation._id,
    contact_uuid: contact._id,
    is_tester: conversation.is_tester,
    window_status: messagingWindow(conversation.last_inbound_at, now).status,
    ai_employee_uuid: conversation.ai_employee_id ?? undefined,
    inbox_status: conversation.inbox_status,
    media_awaiting_transcription: conversation.media_awaiting_transcription,
    vision_wallet_tokens: business.vision_wallet_tokens,
    now: new Date(now).toISOString(),
    pending_schedule_uuid: pendingSchedule?._id,
    contact_phone: contact.phone || undefined,
    last_inbound_message_uuid: conversation.last_inbound_message_id ?? undefined,
  };
}
