import type { IANAZone } from 'luxon';
import { minuteOfDay, type SendWindow } from './send-window';
import { DAY_MS, ianaZone, instantsAtWallTime, localDayNumber, localMinuteOfDay, offsetChanges } from './zone-clock';

interface WindowMinutes {
  from: number;
  to: number;
}

/** Whether the business's wall clock at `now` is inside the window. */
export function isInsideWindow(window: SendWindow, timeZone: string, now: Date): boolean {
  return insideAt(minutesOf(window), ianaZone(timeZone), now.getTime());
}

/**
 * `now` when inside the window, else the instant it next opens: the next time the wall clock shows
 * `from`, or earlier if a daylight-saving change makes the clock jump into the window (a `from`
 * skipped by the spring change opens when the clocks land past it; the autumn change can reopen
 * it). A `from` shown twice opens at the first.
 */
export function nextSendInstant(window: SendWindow, timeZone: string, now: Date): Date {
  const minutes = minutesOf(window);
  const zone = ianaZone(timeZone);
  const start = now.getTime();
  if (insideAt(minutes, zone, start)) return now;
  const today = localDayNumber(zone, start);
  const atFrom = [-1, 0, 1, 2, 3]
    .flatMap((day) => instantsAtWallTime(zone, today + day, minutes.from))
    .filter((instant) => instant > start)
    .sort((a, b) => a - b)[0];
  const byJump = offsetChanges(zone, start, atFrom ?? start + 4 * DAY_MS).find((instant) => insideAt(minutes, zone, instant));
  const opening = byJump ?? atFrom;
  if (opening === undefined) throw new Error(`send window ${window.from}-${window.to} never opens in ${timeZone}`);
  return new Date(opening);
}

function minutesOf(window: SendWindow): WindowMinutes {
  return { from: minuteOfDay(window.from), to: minuteOfDay(window.to) };
}

function insideAt({ from, to }: WindowMinutes, zone: IANAZone, instant: number): boolean {
  const minute = localMinuteOfDay(zone, instant);
  return from < to ? minute >= from && minute < to : minute >= from || minute < to;
}
