import { SYSTEM_ACTOR } from '@cmsg/conversation-commands';
import type { BusinessScope } from '@cmsg/dal';
import { ScheduledMessageRepository } from '../scheduled-message.repository';
import { cancelSchedule } from './cancel-schedule';

/**
 * CONTRACT 3 (cancel_on_customer_reply): whoever records an inbound customer message calls this
 * after storing it (the tester inbound use case directly; real chat messages through the
 * `conversation.customer_message_received` event). Pending schedules of the conversation created
 * with the flag before the message arrived are cancelled (one that already fired goes on) and the
 * conversation is released. Safe to repeat: the fate claim decides once, and a repeated or late
 * event never touches a schedule created after its message. Answers the uuids it cancelled.
 */
export async function cancelSchedulesOnCustomerReply(scope: BusinessScope, conversationId: string, receivedAt: Date, now: Date = new Date()): Promise<string[]> {
  const repository = new ScheduledMessageRepository();
  const cancelled: string[] = [];
  for (const schedule of await repository.pendingOfConversation(scope, conversationId)) {
    if (!schedule.cancel_on_customer_reply || schedule.created_at.getTime() > receivedAt.getTime()) continue;
    if ((await cancelSchedule(repository, scope, schedule, 'customer_reply', SYSTEM_ACTOR, now)) === 'cancelled') cancelled.push(schedule._id);
  }
  return cancelled;
}
