import { CatalogError } from '@cmsg/errors';
import { SCHEDULE_HORIZON_MS, assertWithinScheduleHorizon, localScheduleInstant } from './local-schedule-time';

const iso = (date: string, time: string, zone: string) => localScheduleInstant({ date, time }, zone).toISOString();

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof CatalogError ? error.code : 'not a catalog error';
  }
}

describe('localScheduleInstant', () => {
  it('reads the wall time in the business zone', () => {
    expect(iso('2025-07-01', '09:30', 'America/Mexico_City')).toBe('2025-07-01T15:30:00.000Z');
    expect(iso('2025-01-15', '09:30', 'America/New_York')).toBe('2025-01-15T14:30:00.000Z');
    expect(iso('2025-07-15', '09:30', 'America/New_York')).toBe('2025-07-15T13:30:00.000Z');
    expect(iso('2025-07-15', '00:00', 'UTC')).toBe('2025-07-15T00:00:00.000Z');
  });

  it('refuses a time skipped by the spring-forward change (DST gap)', () => {
    expect(codeOf(() => iso('2025-03-09', '02:30', 'America/New_York'))).toBe('INVALID_REQUEST');
    expect(codeOf(() => iso('2025-03-09', '02:00', 'America/New_York'))).toBe('INVALID_REQUEST');
    expect(codeOf(() => iso('2025-03-30', '02:15', 'Europe/Madrid'))).toBe('INVALID_REQUEST');
    // Just around the gap both exist.
    expect(iso('2025-03-09', '01:59', 'America/New_York')).toBe('2025-03-09T06:59:00.000Z');
    expect(iso('2025-03-09', '03:00', 'America/New_York')).toBe('2025-03-09T07:00:00.000Z');
  });

  it('takes the earlier instant of a time repeated by the fall-back change (DST overlap)', () => {
    // 01:30 happens at -04:00 (05:30Z) and again at -05:00 (06:30Z).
    expect(iso('2025-11-02', '01:30', 'America/New_York')).toBe('2025-11-02T05:30:00.000Z');
    // 02:30 happens at +02:00 (00:30Z) and again at +01:00 (01:30Z).
    expect(iso('2025-10-26', '02:30', 'Europe/Madrid')).toBe('2025-10-26T00:30:00.000Z');
    expect(iso('2025-11-02', '02:00', 'America/New_York')).toBe('2025-11-02T07:00:00.000Z');
  });

  it('has no DST in Mexico City since 2022', () => {
    expect(iso('2025-04-06', '02:30', 'America/Mexico_City')).toBe('2025-04-06T08:30:00.000Z');
  });

  it('refuses an impossible date', () => {
    expect(codeOf(() => iso('2025-02-30', '10:00', 'UTC'))).toBe('INVALID_REQUEST');
    expect(codeOf(() => iso('2025-02-03', '24:00', 'UTC'))).toBe('INVALID_REQUEST');
  });
});

describe('assertWithinScheduleHorizon', () => {
  const now = Date.parse('2025-06-01T12:00:30.000Z');

  it('accepts the future up to 366 days ahead', () => {
    expect(codeOf(() => assertWithinScheduleHorizon(new Date('2025-06-01T12:01:00.000Z'), now))).toBeUndefined();
    expect(codeOf(() => assertWithinScheduleHorizon(new Date(now + SCHEDULE_HORIZON_MS), now))).toBeUndefined();
  });

  it('refuses the past, the present minute already begun, and beyond 366 days', () => {
    expect(codeOf(() => assertWithinScheduleHorizon(new Date('2025-06-01T12:00:00.000Z'), now))).toBe('INVALID_REQUEST');
    expect(codeOf(() => assertWithinScheduleHorizon(new Date('2024-06-01T12:00:00.000Z'), now))).toBe('INVALID_REQUEST');
    expect(codeOf(() => assertWithinScheduleHorizon(new Date(now + SCHEDULE_HORIZON_MS + 60_000), now))).toBe('INVALID_REQUEST');
  });
});
