import { CUSTOMER_MESSAGE_RECEIVED, type ConversationEventEnvelope, CustomerMessageReceivedDataSchema } from '@cmsg/conversation-commands';
import { businessScope } from '@cmsg/dal';
import type { OutboxRecorder } from '@cmsg/events';
import type { Clock, ScheduleStore } from '../ports';
import { cancelSchedulesOnCustomerReply } from '../manage/cancel-schedules-on-customer-reply';

/**
 * One event of `conversation-events` as the scheduler sees it: a recorded customer message cancels
 * the conversation's cancel_on_customer_reply schedule created before the message arrived (the
 * event's created_at, when the conversations service recorded it). Other event types are not the
 * scheduler's. A redelivered event repeats harmlessly (see cancelSchedulesOnCustomerReply).
 * Answers the uuids it cancelled.
 */
export async function onConversationEvent(event: ConversationEventEnvelope, repository: Pick<ScheduleStore, 'pendingOfConversation' | 'cancelPending'>, events: OutboxRecorder, clock: Clock): Promise<string[]> {
  if (event.type !== CUSTOMER_MESSAGE_RECEIVED) return [];
  const data = CustomerMessageReceivedDataSchema.parse(event.data);
  return cancelSchedulesOnCustomerReply(repository, events, businessScope(data.business_id), data.conversation_uuid, new Date(event.created_at), clock.now());
}
