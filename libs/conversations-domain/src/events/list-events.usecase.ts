import { CatalogError } from '@cmsg/errors';
import type { BusinessScope } from '@cmsg/dal';
import type { ListEventsResponse } from '@cmsg/proto';
import { type CursorFilters, type ListCursorCodec, afterPositionFilter } from '../listing/list-cursor';
import type { EventReadPorts } from './event-ports';
import { retentionStart } from './event-retention';
import { toEventView } from './event-view';

export const EVENTS_ENDPOINT = 'events';

export interface ListEventsRequest {
  cursor?: string;
  limit: number;
  type?: string;
  conversationUuid?: string;
  /** ISO 8601 instant. */
  createdSince?: string;
}

/**
 * GET /events (CONTRACT 9.2 replay): the business's events of the last 30 days, oldest first, keyset
 * on (created_at, _id). The filters are bound into the cursor, so a cursor used with other filters
 * is INVALID_CURSOR. The lower bound (created_since, at most 30 days back) is a
 * range on the sort key; a cursor already past it replaces it.
 */
export async function listEvents(ports: EventReadPorts, scope: BusinessScope, codec: ListCursorCodec, request: ListEventsRequest): Promise<ListEventsResponse> {
  const now = ports.clock().getTime();
  const since = request.createdSince ? Date.parse(request.createdSince) : undefined;
  if (since !== undefined && Number.isNaN(since)) throw new CatalogError('INVALID_REQUEST', 'created_since: an ISO 8601 date-time is required.');
  const floor = new Date(Math.max(retentionStart(now).getTime(), since ?? 0));
  const filters: CursorFilters = { type: request.type, conversation_uuid: request.conversationUuid, created_since: since };
  const position = request.cursor ? codec.decode(request.cursor, EVENTS_ENDPOINT, 'asc', filters) : undefined;
  const after = position && position.sortAt >= floor.getTime() ? afterPositionFilter('created_at', 'asc', position) : { created_at: { $gte: floor } };
  const rows = await ports.events.listPage(scope, {
    ...(request.type ? { types: [request.type] } : {}),
    ...(request.conversationUuid ? { conversationId: request.conversationUuid } : {}),
    after,
    limit: request.limit + 1,
  });
  const hasMore = rows.length > request.limit;
  const page = hasMore ? rows.slice(0, request.limit) : rows;
  const last = page[page.length - 1];
  return {
    items: page.map(toEventView),
    has_more: hasMore,
    next_cursor: hasMore && last ? codec.encode(EVENTS_ENDPOINT, 'asc', { sortAt: last.created_at.getTime(), id: last._id }, filters) : '',
  };
}
