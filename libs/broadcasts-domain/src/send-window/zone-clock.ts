import { IANAZone } from 'luxon';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

export function ianaZone(timeZone: string): IANAZone {
  const zone = IANAZone.create(timeZone);
  if (!zone.isValid) throw new Error(`send window: ${JSON.stringify(timeZone)} is not an IANA time zone`);
  return zone;
}

/** The local wall clock of an instant, in milliseconds since 1970-01-01 00:00 local. */
function wallMillis(zone: IANAZone, instant: number): number {
  return instant + zone.offset(instant) * MINUTE_MS;
}

export function localMinuteOfDay(zone: IANAZone, instant: number): number {
  const intoDay = ((wallMillis(zone, instant) % DAY_MS) + DAY_MS) % DAY_MS;
  return Math.floor(intoDay / MINUTE_MS);
}

/** The local date of an instant, as days since 1970-01-01. */
export function localDayNumber(zone: IANAZone, instant: number): number {
  return Math.floor(wallMillis(zone, instant) / DAY_MS);
}

/**
 * Every instant whose local wall time is `minute` on local day `day`, earliest first: none in a
 * daylight-saving gap, two in an hour the clocks repeat.
 */
export function instantsAtWallTime(zone: IANAZone, day: number, minute: number): number[] {
  const wall = day * DAY_MS + minute * MINUTE_MS;
  // Every offset the zone may have around that wall time; changes are far more than a day apart.
  const offsets = new Set([zone.offset(wall - DAY_MS), zone.offset(wall), zone.offset(wall + DAY_MS)]);
  return [...offsets]
    .map((offset) => wall - offset * MINUTE_MS)
    .filter((instant) => wallMillis(zone, instant) === wall)
    .sort((a, b) => a - b);
}

/**
 * The instants in (start, end] at which the zone's offset changes (the clocks jump), earliest
 * first. Sampled hourly, then bisected: no zone changes its offset twice within an hour.
 */
export function offsetChanges(zone: IANAZone, start: number, end: number): number[] {
  const changes: number[] = [];
  let low = start;
  let lowOffset = zone.offset(start);
  while (low < end) {
    const high = Math.min(low + HOUR_MS, end);
    const highOffset = zone.offset(high);
    if (highOffset !== lowOffset) changes.push(firstInstantWithNewOffset(zone, low, high, lowOffset));
    low = high;
    lowOffset = highOffset;
  }
  return changes;
}

function firstInstantWithNewOffset(zone: IANAZone, low: number, high: number, lowOffset: number): number {
  while (high - low > 1) {
    const middle = low + Math.floor((high - low) / 2);
    if (zone.offset(middle) === lowOffset) low = middle;
    else high = middle;
  }
  return high;
}
