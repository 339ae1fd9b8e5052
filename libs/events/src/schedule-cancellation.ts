import type { ScheduleHistoryEntry } from '@cmsg/conversation-commands';
import type { BusinessScope, ScheduledMessageEntity, ScheduledMessageRepository } from '@cmsg/dal';
import type { OutboxRecorder } from './event-outbox';
import { authorOf, outboxEntry } from './outbox-entries';
import { scheduleEventData } from './schedule-event-data';

/**
 * pending -> cancelled with its history entry and its scheduled_message.cancelled entry (the event
 * and the timeline's schedule_cancelled row), recorded when this call cancelled it: every path that
 * cancels (DELETE, a replacement, a customer reply, an owner change) goes through here. Answers the
 * cancelled schedule, or null when it was not pending any more.
 */
export async function cancelPendingSchedule(
  repository: Pick<ScheduledMessageRepository, 'cancelPending'>,
  events: OutboxRecorder,
  scope: BusinessScope,
  schedule: Pick<ScheduledMessageEntity, '_id' | 'conversation_id'>,
  history: ScheduleHistoryEntry,
): Promise<ScheduledMessageEntity | null> {
  const event = outboxEntry('scheduled_message.cancelled', schedule.conversation_id, scheduleEventData(schedule._id), authorOf(history.actor), history.at);
  const cancelled = await repository.cancelPending(scope, schedule._id, history, event);
  if (cancelled) await events.recordQuietly('scheduled_messages', scope, cancelled._id, [event]);
  return cancelled;
}
