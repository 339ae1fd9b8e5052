import { CatalogError } from '@cmsg/errors';
import type { BusinessScope } from '@cmsg/dal';
import type { Event } from '@cmsg/proto';
import { repositories } from '../repositories';
import { retentionStart } from './event-retention';
import { toEventView } from './event-view';

/** GET /events/{id}: one event of the business recorded in the last 30 days; another business's is not found. */
export async function getEvent(scope: BusinessScope, id: string, now: number = Date.now()): Promise<Event> {
  const event = await repositories.events.findById(scope, id);
  if (!event || event.created_at < retentionStart(now)) throw new CatalogError('EVENT_NOT_FOUND', `No event ${id} in this business in the last 30 days.`);
  return toEventView(event);
}
