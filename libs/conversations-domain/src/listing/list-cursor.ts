import { createHash } from 'node:crypto';
import { CatalogError } from '@cmsg/errors';
import { hmacSha256Base64Url, safeEqual } from '@cmsg/platform';

/** Where a page ended: the sort key and the uuid tie-breaker of its last row. */
export interface CursorPosition {
  sortAt: number;
  id: string;
  /** A list merged from several sources: which one the row came from (ranked between sortAt and id). */
  tier?: number;
}

/** The filters a page was listed with, as normalised values (absent ones left out or undefined). */
export type CursorFilters = Readonly<Record<string, string | number | boolean | undefined>>;

interface CursorPayload {
  v: 1;
  /** Endpoint the cursor belongs to: a cursor of one list is invalid on another. */
  e: string;
  /** Sort order it was made for. */
  o: 'asc' | 'desc';
  /** Digest of the filters it was made for; absent for none (so cursors made before filters existed stay valid). */
  f?: string;
  k: [number, string] | [number, string, number];
  /** Expiry, epoch ms. */
  x: number;
}

export const CURSOR_TTL_MS = 24 * 60 * 60 * 1000;

/** Opaque, signed, bound to endpoint, order and filters, expiring cursors (CONTRACT sections 3 and 9.1). */
export class ListCursorCodec {
  constructor(private readonly secret: string, private readonly now: () => number = Date.now) {}

  encode(endpoint: string, order: 'asc' | 'desc', position: CursorPosition, filters: CursorFilters = {}): string {
    const digest = filtersDigest(filters);
    const payload: CursorPayload = {
      v: 1,
      e: endpoint,
      o: order,
      ...(digest === undefined ? {} : { f: digest }),
      k: position.tier === undefined ? [position.sortAt, position.id] : [position.sortAt, position.id, position.tier],
      x: this.now() + CURSOR_TTL_MS,
    };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${hmacSha256Base64Url(this.secret, body)}`;
  }

  decode(cursor: string, endpoint: string, order: 'asc' | 'desc', filters: CursorFilters = {}): CursorPosition {
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
    if (payload.v !== 1 || payload.e !== endpoint || payload.o !== order || payload.f !== filtersDigest(filters)) throw invalidCursor();
    if (typeof payload.x !== 'number' || payload.x < this.now()) throw new CatalogError('INVALID_CURSOR', 'The cursor has expired; start again from the first page.');
    const [sortAt, id, tier] = Array.isArray(payload.k) ? payload.k : [];
    if (typeof sortAt !== 'number' || typeof id !== 'string' || (tier !== undefined && typeof tier !== 'number')) throw invalidCursor();
    return tier === undefined ? { sortAt, id } : { sortAt, id, tier };
  }
}

function invalidCursor(): CatalogError {
  return new CatalogError('INVALID_CURSOR', 'The cursor is invalid, or belongs to another endpoint, sort order or set of filters.');
}

/**
 * A short digest of the filters that are set (keys sorted), so a cursor stays small however long
 * the filter values are; undefined when none is set. The cursor's signature covers it.
 */
function filtersDigest(filters: CursorFilters): string | undefined {
  const set = Object.keys(filters)
    .filter((key) => filters[key] !== undefined)
    .sort()
    .map((key) => [key, filters[key]]);
  if (set.length === 0) return undefined;
  return createHash('sha256').update(JSON.stringify(set)).digest('base64url').slice(0, 22);
}

/** Keyset filter for rows strictly after the cursor position in the given order. */
export function afterPositionFilter(sortField: string, order: 'asc' | 'desc', position: CursorPosition): Record<string, unknown> {
  const beyond = order === 'desc' ? '$lt' : '$gt';
  const at = new Date(position.sortAt);
  return { $or: [{ [sortField]: { [beyond]: at } }, { [sortField]: at, _id: { [beyond]: position.id } }] };
}
