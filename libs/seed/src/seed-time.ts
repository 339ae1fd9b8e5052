import { z } from 'zod';

/*
 * Times in a seed file are either absolute ISO 8601 date-times with an offset
 * (`2025-03-01T09:30:00Z`, `2025-03-01T09:30:00-06:00`) or relative to the moment of loading:
 * `now`, `now-2h`, `now+30m`, `now-3d` (units: s, m, h, d, w). Demo data needs the relative
 * form because the 24-hour messaging window is measured against the real clock.
 */
const RELATIVE_TIME = /^now(?:([+-])(\d{1,9})([smhdw]))?$/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
const isoDateTime = z.iso.datetime({ offset: true });

export const SEED_TIME_HINT = 'an ISO 8601 date-time with offset (2025-03-01T09:30:00Z) or a relative time (now, now-2h, now+30m; units s m h d w)';

export function isSeedTime(value: string): boolean {
  return RELATIVE_TIME.test(value) || isoDateTime.safeParse(value).success;
}

export function isRelativeSeedTime(value: string): boolean {
  return RELATIVE_TIME.test(value);
}

/** Resolves a validated seed time; every relative time of one load uses the same `now`. */
export function resolveSeedTime(value: string, now: Date): Date {
  const relative = RELATIVE_TIME.exec(value);
  if (!relative) {
    if (!isoDateTime.safeParse(value).success) throw new Error(`not a seed time: ${value}`);
    return new Date(value);
  }
  const [, sign, amount, unit] = relative;
  if (!sign) return new Date(now.getTime());
  const offsetMs = Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
  return new Date(now.getTime() + (sign === '-' ? -offsetMs : offsetMs));
}
