import { CatalogError } from '@cmsg/errors';

/** `2025-01-31T18:04:05.123456Z`: the fraction of a second, if any. */
const FRACTION = /T\d{2}:\d{2}:\d{2}\.(\d+)/;

/**
 * The instant of an `updated_since` filter (RFC 3339). Stored times have millisecond precision, so
 * a finer instant is rounded up to the next millisecond: "at or after" then keeps its meaning.
 */
export function parseUpdatedSince(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const milliseconds = Date.parse(value);
  if (Number.isNaN(milliseconds)) throw new CatalogError('INVALID_REQUEST', `Invalid request: updated_since: not a date-time: ${value}.`);
  const beyondMilliseconds = FRACTION.exec(value)?.[1]?.slice(3) ?? '';
  return new Date(/[1-9]/.test(beyondMilliseconds) ? milliseconds + 1 : milliseconds);
}
