import type { MessageEntity, StoredTimelineEvent } from '@cmsg/dal';
import type { CursorPosition } from '../listing/list-cursor';

/**
 * A conversation's timeline is two collections read as one list: `messages`, and `timeline_events`
 * (notes and events). Its order is created_at, then the source (a message before a note or an event
 * of the same instant: a note usually comments what was just said), then the id; newest first is
 * the exact reverse. The AI's context and GET /conversation/timeline read it through readTimeline.
 */
export type TimelineRow = { source: 'message'; row: MessageEntity } | { source: 'timeline_event'; row: StoredTimelineEvent };

export type TimelineOrder = 'asc' | 'desc';

/** The source's rank among rows of one instant, oldest first. */
export const MESSAGE_TIER = 0;
export const TIMELINE_EVENT_TIER = 1;

export const DEFAULT_TIMELINE_LIMIT = 30;
export const MAX_TIMELINE_LIMIT = 100;

/** 0 or less: the default; above the cap: the cap (an internal RPC, so no error for a large ask). */
export function timelineLimit(requested: number): number {
  if (!Number.isFinite(requested) || requested <= 0) return DEFAULT_TIMELINE_LIMIT;
  return Math.min(Math.floor(requested), MAX_TIMELINE_LIMIT);
}

/** Where a row stands in the timeline (what a cursor carries). */
export function timelinePositionOf(row: TimelineRow): Required<CursorPosition> {
  return { sortAt: row.row.created_at.getTime(), tier: row.source === 'message' ? MESSAGE_TIER : TIMELINE_EVENT_TIER, id: row.row._id };
}

/** Oldest first: negative when `a` comes before `b`. Ids compare by code unit, as MongoDB compares these ASCII strings. */
export function compareTimelinePositions(a: CursorPosition, b: CursorPosition): number {
  return a.sortAt - b.sortAt || (a.tier ?? MESSAGE_TIER) - (b.tier ?? MESSAGE_TIER) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The first `limit` rows, in the page's order, of streams each read in that order (each holding
 * at least its own first `limit` rows after the same position).
 */
export function mergeTimelineRows(streams: readonly (readonly TimelineRow[])[], order: TimelineOrder, limit: number): TimelineRow[] {
  const sign = order === 'desc' ? -1 : 1;
  return streams
    .flat()
    .sort((a, b) => sign * compareTimelinePositions(timelinePositionOf(a), timelinePositionOf(b)))
    .slice(0, limit);
}

/**
 * The keyset condition on one source's rows that come strictly after `position` in the page's
 * order. Rows of the cursor's own source continue after its (created_at, _id); of the instant of
 * the position, a source ranked after the cursor's in that order comes whole, one ranked before
 * came already.
 */
export function afterTimelinePosition(sourceTier: number, order: TimelineOrder, position: CursorPosition | undefined): Record<string, unknown> {
  if (!position) return {};
  const at = new Date(position.sortAt);
  const beyond = order === 'desc' ? '$lt' : '$gt';
  const fromInstant = order === 'desc' ? '$lte' : '$gte';
  const cursorTier = position.tier ?? MESSAGE_TIER;
  if (sourceTier === cursorTier) return { $or: [{ created_at: { [beyond]: at } }, { created_at: at, _id: { [beyond]: position.id } }] };
  const instantComesNext = order === 'asc' ? sourceTier > cursorTier : sourceTier < cursorTier;
  return { created_at: { [instantComesNext ? fromInstant : beyond]: at } };
}
