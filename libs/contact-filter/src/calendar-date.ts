const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const RFC3339_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/;

/** A real calendar date `YYYY-MM-DD` (no 2025-02-29), the stored form of a date attribute. */
export function isIsoDate(text: string): boolean {
  const match = ISO_DATE.exec(text);
  return match !== null && isCalendarDay(Number(match[1]), Number(match[2]), Number(match[3]));
}

/**
 * An RFC 3339 date-time with its offset (`Z` or `±HH:MM`) as an instant, or null. Checked by hand
 * because `Date.parse` accepts other forms and, in V8, rolls 2025-02-30 over to March.
 */
export function parseDateTime(text: string): Date | null {
  const match = RFC3339_DATE_TIME.exec(text);
  if (match === null) return null;
  const [, year, month, day, hour, minute, second, , , offsetHours, offsetMinutes] = match;
  if (!isCalendarDay(Number(year), Number(month), Number(day))) return null;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return null;
  if (offsetHours !== undefined && (Number(offsetHours) > 23 || Number(offsetMinutes) > 59)) return null;
  const instant = new Date(text);
  return Number.isNaN(instant.getTime()) ? null : instant;
}

function isCalendarDay(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
