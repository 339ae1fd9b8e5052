import type { BusinessScope } from '@cmsg/dal';
import type { ConversationContext } from '@cmsg/proto';
import type { PendingSchedules } from '../ai-assignment/ai-assignment-ports';
import { loadPendingSchedule } from '../ai-assignment/pending-schedule';
import { type BusinessDirectory, clockOf, loadBusiness } from '../conversation/business-clock';
import { conversationNow, messagingWindow } from '../conversation/messaging-window';
import { type ConversationLookup, type ConversationReference, resolveConversationReference } from '../conversation/conversation-resolver';

/** What the context reads: the conversation and its contact, the business (clock, vision wallet), the pending schedule. */
export interface ConversationContextPorts {
  lookup: ConversationLookup;
  businesses: BusinessDirectory;
  schedules: Pick<PendingSchedules, 'pendingOfConversation'>;
}

/**
 * GetConversationContext: what the actions-runner checks before and while running actions. The
 * window is seen at the conversation's own now (virtual for tester conversations).
 */
export async function getConversationContext(ports: ConversationContextPorts, scope: BusinessScope, reference: ConversationReference, realNow: number = Date.now()): Promise<ConversationContext> {
  const { conversation, contact } = await resolveConversationReference(ports.lookup, scope, reference);
  const [business, pendingSchedule] = await Promise.all([loadBusiness(ports.businesses, scope), loadPendingSchedule(ports.schedules, scope, conversation)]);
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
