import type { BusinessScope } from '@cmsg/dal';
import type { CursorPosition } from '../listing/list-cursor';
import type { TimelineStores } from './timeline-stores';
import { MESSAGE_TIER, TIMELINE_EVENT_TIER, type TimelineOrder, type TimelineRow, afterTimelinePosition, mergeTimelineRows } from './timeline-merge';

export interface TimelineRead {
  /** Whether messages are part of it. */
  messages: boolean;
  /** The kinds of `timeline_events` rows that are part of it (none: no read of that collection). */
  timelineEventKinds: readonly string[];
  order: TimelineOrder;
  /** Rows strictly after this position in `order`; from the start without one. */
  after?: CursorPosition;
  limit: number;
}

/**
 * The first `limit` rows of a conversation's timeline after a position: at most `limit` from each
 * collection in the page's order (one indexed query each, in parallel), merged. The AI's context
 * and the public timeline both read it here, so they see the same rows in the same order.
 */
export async function readTimeline(stores: TimelineStores, scope: BusinessScope, conversationId: string, read: TimelineRead): Promise<TimelineRow[]> {
  const direction = read.order === 'desc' ? -1 : 1;
  const [messages, events] = await Promise.all([
    read.messages
      ? stores.messages.findTimelinePage(scope, conversationId, { after: afterTimelinePosition(MESSAGE_TIER, read.order, read.after), direction, limit: read.limit })
      : [],
    read.timelineEventKinds.length > 0
      ? stores.timelineEvents.findTimelinePage(scope, conversationId, read.timelineEventKinds, {
          after: afterTimelinePosition(TIMELINE_EVENT_TIER, read.order, read.after),
          direction,
          limit: read.limit,
        })
      : [],
  ]);
  return mergeTimelineRows(
    [messages.map((row): TimelineRow => ({ source: 'message', row })), events.map((row): TimelineRow => ({ source: 'timeline_event', row }))],
    read.order,
    read.limit,
  );
}
