import type { MessageEntity, StoredTimelineEvent } from '@cmsg/dal';
import type { CursorPosition } from '../listing/list-cursor';
import {
  DEFAULT_TIMELINE_LIMIT,
  MAX_TIMELINE_LIMIT,
  MESSAGE_TIER,
  TIMELINE_EVENT_TIER,
  type TimelineOrder,
  type TimelineRow,
  afterTimelinePosition,
  compareTimelinePositions,
  mergeTimelineRows,
  timelineLimit,
  timelinePositionOf,
} from './timeline-merge';

const at = (minute: number, ms = 0) => new Date(Date.UTC(2025, 0, 1, 12, minute) + ms);
const message = (id: string, minute: number, ms = 0): TimelineRow => ({ source: 'message', row: { _id: id, created_at: at(minute, ms) } as MessageEntity });
const note = (id: string, minute: number, ms = 0): TimelineRow => ({ source: 'timeline_event', row: { _id: id, created_at: at(minute, ms) } as StoredTimelineEvent });
const ids = (rows: TimelineRow[]) => rows.map((row) => row.row._id);
/** A stream as a repository answers it: in the page's order. */
const inOrder = (rows: TimelineRow[], order: TimelineOrder) => mergeTimelineRows([rows], order, rows.length);

describe('timelineLimit', () => {
  it.each([
    [0, DEFAULT_TIMELINE_LIMIT],
    [-5, DEFAULT_TIMELINE_LIMIT],
    [Number.NaN, DEFAULT_TIMELINE_LIMIT],
    [1, 1],
    [30, 30],
    [100, 100],
    [101, MAX_TIMELINE_LIMIT],
    [10_000, MAX_TIMELINE_LIMIT],
  ])('%s -> %s', (requested, expected) => {
    expect(timelineLimit(requested)).toBe(expected);
  });
});

describe('mergeTimelineRows', () => {
  it('merges messages and notes by time, oldest first', () => {
    const messages = inOrder([message('b5', 5), message('c1', 1)], 'asc');
    expect(ids(mergeTimelineRows([messages, [note('n3', 3)]], 'asc', 10))).toEqual(['c1', 'n3', 'b5']);
  });

  it('keeps the first rows of the order: read newest first, the most recent ones', () => {
    const messages = inOrder([message('c1', 1), message('b2', 2), message('c4', 4)], 'desc');
    const notes = inOrder([note('n3', 3), note('n5', 5)], 'desc');
    expect(ids(mergeTimelineRows([messages, notes], 'desc', 3))).toEqual(['n5', 'c4', 'n3']);
  });

  it('puts a message before a note of the same instant, then orders by id; newest first is the exact reverse', () => {
    const rows = [note('a', 1), message('z', 1), message('y', 1), note('b', 1)];
    expect(ids(mergeTimelineRows([rows], 'asc', 10))).toEqual(['y', 'z', 'a', 'b']);
    expect(ids(mergeTimelineRows([rows], 'desc', 10))).toEqual(['b', 'a', 'z', 'y']);
  });
});

/** What MongoDB answers for the keyset conditions afterTimelinePosition writes (created_at ranges, created_at and _id). */
function matches(row: TimelineRow, filter: Record<string, unknown>): boolean {
  if (Array.isArray(filter['$or'])) return (filter['$or'] as Record<string, unknown>[]).some((branch) => matches(row, branch));
  const created = row.row.created_at.getTime();
  const compare = (value: number | string, condition: unknown): boolean => {
    if (condition instanceof Date) return value === condition.getTime();
    if (typeof condition === 'string') return value === condition;
    const [[operator, bound]] = Object.entries(condition as Record<string, Date | string>) as [[string, Date | string]];
    const limit = bound instanceof Date ? bound.getTime() : bound;
    return { $gt: value > limit, $gte: value >= limit, $lt: value < limit, $lte: value <= limit }[operator]!;
  };
  return Object.entries(filter).every(([field, condition]) => (field === 'created_at' ? compare(created, condition) : compare(row.row._id, condition)));
}

describe('afterTimelinePosition', () => {
  // Two collections sharing instants, ids in both orders, several rows per instant.
  const rows: TimelineRow[] = [];
  for (let index = 0; index < 60; index += 1) {
    const instant = Math.floor(index / 5);
    const id = `${String.fromCharCode(97 + ((index * 7) % 26))}${index}`;
    rows.push(index % 3 === 0 ? note(id, 0, instant) : message(id, 0, instant));
  }

  it.each(['asc', 'desc'] as const)('selects from each collection exactly the rows after any position (%s)', (order) => {
    const sign = order === 'desc' ? -1 : 1;
    for (const cursorRow of rows) {
      const position: CursorPosition = timelinePositionOf(cursorRow);
      for (const [tier, source] of [[MESSAGE_TIER, 'message'], [TIMELINE_EVENT_TIER, 'timeline_event']] as const) {
        const filter = afterTimelinePosition(tier, order, position);
        const selected = rows.filter((row) => row.source === source && matches(row, filter));
        const expected = rows.filter((row) => row.source === source && sign * compareTimelinePositions(timelinePositionOf(row), position) > 0);
        expect(ids(selected).sort()).toEqual(ids(expected).sort());
      }
    }
  });

  it('pages through both collections without a gap or a repeat, for any page size', () => {
    for (const order of ['asc', 'desc'] as const) {
      for (const limit of [1, 2, 3, 7, 100]) {
        const seen: string[] = [];
        let after: CursorPosition | undefined;
        for (;;) {
          const read = (tier: number, source: TimelineRow['source']) =>
            inOrder(rows.filter((row) => row.source === source && matches(row, afterTimelinePosition(tier, order, after))), order).slice(0, limit + 1);
          const page = mergeTimelineRows([read(MESSAGE_TIER, 'message'), read(TIMELINE_EVENT_TIER, 'timeline_event')], order, limit + 1);
          seen.push(...ids(page.slice(0, limit)));
          if (page.length <= limit) break;
          after = timelinePositionOf(page[limit - 1]!);
        }
        expect(seen).toEqual(ids(inOrder(rows, order)));
      }
    }
  });

  it('reads from the start without a position', () => {
    expect(afterTimelinePosition(MESSAGE_TIER, 'asc', undefined)).toEqual({});
  });
});
