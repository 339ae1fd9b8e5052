import { CatalogError } from '@cmsg/errors';
import { IANAZone } from 'luxon';

/** CONTRACT 3: "about 1 year ahead" is 366 days. */
export const SCHEDULE_HORIZON_MS = 366 * 24 * 60 * 60 * 1000;

const DAY_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;

export interface LocalScheduleTime {
  /** YYYY-MM-DD */
  date: string;
  /** HH:MM, 24 h */
  time: string;
}

/**
 * The UTC instant of a local date and time in an IANA time zone. A local time skipped by a
 * daylight-saving change does not exist: INVALID_REQUEST. One that occurs twice (the hour repeated
 * when clocks go back) is the earlier instant. Computed from the zone's offsets rather than
 * luxon's own resolution, which picks the later instant of a repeated hour.
 */
export function localScheduleInstant(local: LocalScheduleTime, timeZone: string): Date {
  const zone = IANAZone.create(timeZone);
  if (!zone.isValid) throw new CatalogError('UPDATE_FAILED', `The business time zone ${JSON.stringify(timeZone)} is not a valid IANA zone.`);
  const naiveUtc = naiveUtcMillis(local);
  // Every offset the zone could have around that wall time; DST changes are far more than a day apart.
  const offsets = new Set([zone.offset(naiveUtc - DAY_MS), zone.offset(naiveUtc), zone.offset(naiveUtc + DAY_MS)]);
  const instants = [...offsets]
    .map((offsetMinutes) => naiveUtc - offsetMinutes * MINUTE_MS)
    .filter((instant) => naiveUtc - zone.offset(instant) * MINUTE_MS === instant)
    .sort((a, b) => a - b);
  if (instants.length === 0) {
    throw new CatalogError(
      'INVALID_REQUEST',
      `Invalid request: schedule_at: ${local.date} ${local.time} does not exist in ${timeZone} (skipped by a daylight-saving change).`,
    );
  }
  return new Date(instants[0]!);
}

function naiveUtcMillis(local: LocalScheduleTime): number {
  const dateMatch = /^(\d{4})-(\d{2})-(\d{2})$/.exec(local.date);
  const timeMatch = /^(\d{2}):(\d{2})$/.exec(local.time);
  if (!dateMatch || !timeMatch) throw new CatalogError('INVALID_REQUEST', 'Invalid request: schedule_at: date YYYY-MM-DD and time HH:MM are required.');
  const [year, month, day] = [Number(dateMatch[1]), Number(dateMatch[2]), Number(dateMatch[3])];
  const [hour, minute] = [Number(timeMatch[1]), Number(timeMatch[2])];
  const millis = Date.UTC(year, month - 1, day, hour, minute);
  const check = new Date(millis);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59) {
    throw new CatalogError('INVALID_REQUEST', `Invalid request: schedule_at: ${local.date} ${local.time} is not a valid date and time.`);
  }
  return millis;
}

/** SPEC 4.1: in the future and at most 366 days ahead of the conversation's now. */
export function assertWithinScheduleHorizon(scheduleAt: Date, conversationNow: number): void {
  const at = scheduleAt.getTime();
  if (at <= conversationNow) {
    throw new CatalogError('INVALID_REQUEST', `Invalid request: schedule_at: ${scheduleAt.toISOString()} is not in the future (now is ${new Date(conversationNow).toISOString()}).`);
  }
  if (at > conversationNow + SCHEDULE_HORIZON_MS) {
    throw new CatalogError('INVALID_REQUEST', `Invalid request: schedule_at: ${scheduleAt.toISOString()} is more than 366 days ahead.`);
  }
}
