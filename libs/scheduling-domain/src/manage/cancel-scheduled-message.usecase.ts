import type { ScheduleActor } from '@cmsg/conversation-commands';
import { CatalogError } from '@cmsg/errors';
import type { BusinessScope } from '@cmsg/dal';
import type { ScheduledMessage } from '@cmsg/proto';
import type { Clock } from '../ports';
import type { ScheduledMessageRepository } from '../scheduled-message.repository';
import { cancelSchedule } from './cancel-schedule';
import { getScheduledMessage } from './get-scheduled-message.usecase';

/**
 * DELETE /scheduled-messages/{uuid}: a pending schedule becomes cancelled and releases its
 * conversation. Already cancelled: answered unchanged, so a retried DELETE succeeds. Already fired
 * (being sent, sent or failed): 409 SCHEDULE_CONFLICT, nothing changes.
 */
export async function cancelScheduledMessage(
  repository: ScheduledMessageRepository,
  clock: Clock,
  scope: BusinessScope,
  id: string,
  actor: ScheduleActor,
): Promise<ScheduledMessage> {
  const schedule = await repository.find(scope, id);
  if (!schedule) throw new CatalogError('SCHEDULED_MESSAGE_NOT_FOUND', `No scheduled message ${id} in this business.`);
  const outcome = await cancelSchedule(repository, scope, schedule, 'api_request', actor, clock.now());
  if (outcome === 'fired') throw new CatalogError('SCHEDULE_CONFLICT', 'The scheduled message already fired; it cannot be cancelled.');
  return getScheduledMessage(repository, scope, id);
}
