import { type ScheduleActor, scheduleHistoryEntry } from '@cmsg/conversation-commands';
import { CatalogError } from '@cmsg/errors';
import type { BusinessScope, ScheduledMessageRepository } from '@cmsg/dal';
import type { ScheduledMessage } from '@cmsg/proto';
import type { Clock } from '../ports';
import { toScheduledMessage } from './scheduled-message.view';

/**
 * DELETE /scheduled-messages/{uuid}: a pending schedule becomes cancelled (an update conditional on
 * it being pending, so a firer, a replacement or a customer reply and this request never both win).
 * Already cancelled: answered unchanged, so a retried DELETE succeeds. Already fired (being sent,
 * sent or failed): 409 SCHEDULE_CONFLICT, nothing changes.
 */
export async function cancelScheduledMessage(repository: ScheduledMessageRepository, clock: Clock, scope: BusinessScope, id: string, actor: ScheduleActor): Promise<ScheduledMessage> {
  const cancelled = await repository.cancelPending(scope, id, scheduleHistoryEntry('cancelled', 'cancelled', clock.now(), { reason: 'api_request', actor }));
  if (cancelled) return toScheduledMessage(cancelled);
  const schedule = await repository.find(scope, id);
  if (!schedule) throw new CatalogError('SCHEDULED_MESSAGE_NOT_FOUND', `No scheduled message ${id} in this business.`);
  if (schedule.status !== 'cancelled') throw new CatalogError('SCHEDULE_CONFLICT', 'The scheduled message already fired; it cannot be cancelled.');
  return toScheduledMessage(schedule);
}
