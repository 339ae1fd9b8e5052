import { type ScheduleActor, scheduleHistoryEntry } from '@cmsg/conversation-commands';
import { CatalogError } from '@cmsg/errors';
import type { BusinessScope } from '@cmsg/dal';
import { type OutboxRecorder, cancelPendingSchedule } from '@cmsg/events';
import type { ScheduledMessage } from '@cmsg/proto';
import type { Clock, ScheduleStore } from '../ports';
import { toScheduledMessage } from './scheduled-message.view';

export interface CancelScheduledMessageDependencies {
  schedules: Pick<ScheduleStore, 'find' | 'cancelPending'>;
  events: OutboxRecorder;
  clock: Clock;
}

/**
 * DELETE /scheduled-messages/{uuid}: a pending schedule becomes cancelled (an update conditional on
 * it being pending, so a firer, a replacement or a customer reply and this request never both win),
 * with its scheduled_message.cancelled event.
 * Already cancelled: answered unchanged, so a retried DELETE succeeds. Already fired (being sent,
 * sent or failed): 409 SCHEDULE_CONFLICT, nothing changes.
 */
export async function cancelScheduledMessage(scope: BusinessScope, id: string, actor: ScheduleActor, dependencies: CancelScheduledMessageDependencies): Promise<ScheduledMessage> {
  const { schedules, events, clock } = dependencies;
  const schedule = await schedules.find(scope, id);
  if (!schedule) throw new CatalogError('SCHEDULED_MESSAGE_NOT_FOUND', `No scheduled message ${id} in this business.`);
  const cancelled = await cancelPendingSchedule(schedules, events, scope, schedule, scheduleHistoryEntry('cancelled', 'cancelled', clock.now(), { reason: 'api_request', actor }));
  if (cancelled) return toScheduledMessage(cancelled);
  // Not pending when the update ran: as it is now (it may have fired or been cancelled since the read).
  const current = (await schedules.find(scope, id)) ?? schedule;
  if (current.status !== 'cancelled') throw new CatalogError('SCHEDULE_CONFLICT', 'The scheduled message already fired; it cannot be cancelled.');
  return toScheduledMessage(current);
}
