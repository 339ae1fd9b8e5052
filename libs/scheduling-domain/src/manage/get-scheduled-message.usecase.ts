import { CatalogError } from '@cmsg/errors';
import type { BusinessScope, ScheduledMessageRepository } from '@cmsg/dal';
import type { ScheduledMessage } from '@cmsg/proto';
import { toScheduledMessage } from './scheduled-message.view';

/** Unknown, or another business's: SCHEDULED_MESSAGE_NOT_FOUND (the lookup is scoped). */
export async function getScheduledMessage(repository: ScheduledMessageRepository, scope: BusinessScope, id: string): Promise<ScheduledMessage> {
  const schedule = await repository.find(scope, id);
  if (!schedule) throw new CatalogError('SCHEDULED_MESSAGE_NOT_FOUND', `No scheduled message ${id} in this business.`);
  return toScheduledMessage(schedule);
}
