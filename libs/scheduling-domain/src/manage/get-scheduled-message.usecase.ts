import { CatalogError } from '@cmsg/errors';
import type { BusinessScope } from '@cmsg/dal';
import type { ScheduledMessage } from '@cmsg/proto';
import type { ScheduleStore } from '../ports';
import { toScheduledMessage } from './scheduled-message.view';

export interface GetScheduledMessageDependencies {
  schedules: Pick<ScheduleStore, 'find'>;
}

/** Unknown, or another business's: SCHEDULED_MESSAGE_NOT_FOUND (the lookup is scoped). */
export async function getScheduledMessage(scope: BusinessScope, id: string, dependencies: GetScheduledMessageDependencies): Promise<ScheduledMessage> {
  const schedule = await dependencies.schedules.find(scope, id);
  if (!schedule) throw new CatalogError('SCHEDULED_MESSAGE_NOT_FOUND', `No scheduled message ${id} in this business.`);
  return toScheduledMessage(schedule);
}
