import { SYSTEM_ACTOR, scheduleHistoryEntry } from '@cmsg/conversation-commands';
import type { BusinessScope } from '@cmsg/dal';
import { type OutboxRecorder, cancelPendingSchedule } from '@cmsg/events';
import type { ScheduleStore } from '../ports';

/**
 * CONTRACT 3 (cancel_on_customer_reply): whoever records an inbound customer message calls this
 * after storing it (the tester inbound use case directly; real chat messages through the
 * `conversation.customer_message_received` event). The conversation's pending schedule is
 * cancelled if it was created with the flag before the message arrived (one that already fired
 * goes on). Safe to repeat: the cancellation is conditional on the schedule being pending, and a
 * repeated or late event never touches a schedule created after its message. Answers the uuids it
 * cancelled.
 */
export async function cancelSchedulesOnCustomerReply(
  repository: Pick<ScheduleStore, 'pendingOfConversation' | 'cancelPending'>,
  events: OutboxRecorder,
  scope: BusinessScope,
  conversationId: string,
  receivedAt: Date,
  now: Date,
): Promise<string[]> {
  const pending = await repository.pendingOfConversation(scope, conversationId);
  if (!pending?.cancel_on_customer_reply || pending.created_at.getTime() > receivedAt.getTime()) return [];
  const cancelled = await cancelPendingSchedule(repository, events, scope, pending, scheduleHistoryEntry('cancelled', 'cancelled', now, { reason: 'customer_reply', actor: SYSTEM_ACTOR }));
  return cancelled ? [cancelled._id] : [];
}
