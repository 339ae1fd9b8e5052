import { CatalogError } from '@cmsg/errors';
import { hmacSha256Base64Url, safeEqual } from '@cmsg/platform';

/** Where a page ended: the sort key and the uuid tie-breaker of its last row. */
export interface CursorPosition {
  sortAt: number;
  id: string;
}

interface CursorPayload {
  v: 1;
  /** Endpoint the cursor belongs to: a cursor of one list is invalid on another. */
  e: string;
  /** Sort order it was made for. */
  o: 'asc' | 'desc';
  k: [number, string];
  /** Expiry, epoch ms. */
  x: number;
}

export const CURSOR_TTL_MS = 24 * 60 * 60 * 1000;

/** Opaque, signed, bound to endpoint and order, expiring cursors (CONTRACT section 3). */
export class ListCursorCodec {
  constructor(private readonly secret: string, private readonly now: () => number = Date.now) {}

  encode(endpoint: string, order: 'asc' | 'desc', position: CursorPosition): string {
    const payload: CursorPayload = { v: 1, e: endpoint, o: order, k: [position.sortAt, position.id], x: this.now() + CURSOR_TTL_MS };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${hmacSha256Base64Url(this.secret, body)}`;
  }

  decode(cursor: string, endpoint: string, order: 'asc' | 'desc'): CursorPosition {
    const [body, signature, extra] = cursor.split('.');
    if (!body || !signature || extra !== undefined || !safeEqual(signature, hmacSha256Base64Url(this.secret, body))) {
      throw invalidCursor();
    }
    let payload: CursorPayload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CursorPayload;
    } catch {
      throw invalidCursor();
    }
    if (payload.v !== 1 || payload.e !== endpoint || payload.o !== order) throw invalidCursor();
    if (typeof payload.x !== 'number' || payload.x < this.now()) throw new CatalogError('INVALID_CURSOR', 'The cursor has expired; start again from the first page.');
    const [sortAt, id] = payload.k ?? [];
    if (typeof sortAt !== 'number' || typeof id !== 'string') throw invalidCursor();
    return { sortAt, id };
  }
}

function invalidCursor(): CatalogError {
  return new CatalogError('INVALID_CURSOR', 'The cursor is invalid, or belongs to another endpoint or sort order.');
}

/** Keyset filter for rows strictly after the cursor position in the given order. */
export function afterPositionFilter(sortField: string, order: 'asc' | 'desc', position: CursorPosition): Record<string, unknown> {
  const beyond = order === 'desc' ? '$lt' : '$gt';
  const at = new Date(position.sortAt);
  return { $or: [{ [sortField]: { [beyond]: at } }, { [sortField]: at, _id: { [beyond]: position.id } }] };
}
