import type { CursorFilters, CursorPosition, ListCursorCodec } from './list-cursor';
import { afterPositionFilter } from './list-cursor';

export interface PageRequest {
  cursor?: string;
  limit: number;
  order: 'asc' | 'desc';
}

export interface Page<Row> {
  rows: Row[];
  next_cursor: string;
  has_more: boolean;
}

interface KeysetRow {
  _id: string;
}

/**
 * Keyset pagination on (sortField, _id): stable under concurrent inserts, no skip/offset.
 * Fetches one row more than the page to know whether another page exists.
 */
export async function fetchKeysetPage<Row extends KeysetRow>(options: {
  codec: ListCursorCodec;
  endpoint: string;
  request: PageRequest;
  /** The filters the rows are listed with: bound into the cursor, so its next page lists the same set. */
  filters?: CursorFilters;
  sortField: string;
  sortValue: (row: Row) => Date;
  /** The rows after the cursor's position (`after`, a filter), in the page's direction, at most `limit`. */
  query: (after: Record<string, unknown>, direction: 1 | -1, limit: number) => Promise<Row[]>;
}): Promise<Page<Row>> {
  const { codec, endpoint, request, filters, sortField } = options;
  const position: CursorPosition | undefined = request.cursor ? codec.decode(request.cursor, endpoint, request.order, filters) : undefined;
  const direction = request.order === 'desc' ? -1 : 1;
  const filter = position ? afterPositionFilter(sortField, request.order, position) : {};
  const rows = await options.query(filter, direction, request.limit + 1);
  const hasMore = rows.length > request.limit;
  const pageRows = hasMore ? rows.slice(0, request.limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return {
    rows: pageRows,
    has_more: hasMore,
    next_cursor: hasMore && last ? codec.encode(endpoint, request.order, { sortAt: options.sortValue(last).getTime(), id: last._id }, filters) : '',
  };
}
