import { CatalogError } from '@cmsg/errors';
import type { BusinessScope } from '@cmsg/dal';
import type { Event } from '@cmsg/proto';
import type { EventReadPorts } from './event-ports';
import { retentionStart } from './event-retention';
import { toEventView } from './event-view';

/** GET /events/{id}: one event of the business recorded in the last 30 days; another business's is not found. */
export async function getEvent(ports: EventReadPorts, scope: BusinessScope, id: string): Promise<Event> {
  const event = await ports.events.findById(scope, id);
  if (!event || event.created_at < retentionStart(ports.clock().getTime())) throw new CatalogError('EVENT_NOT_FOUND', `No event ${id} in this business in the last 30 days.`);
  return toEventView(event);
}
