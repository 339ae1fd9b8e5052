import { isInsideWindow, nextSendInstant } from './send-window-timing';
import type { SendWindow } from './send-window';

const next = (window: SendWindow, zone: string, now: string) => nextSendInstant(window, zone, new Date(now)).toISOString();
const inside = (window: SendWindow, zone: string, now: string) => isInsideWindow(window, zone, new Date(now));

const office = { from: '09:00', to: '18:00' };
const night = { from: '22:00', to: '06:00' };

describe('send window in UTC', () => {
  it('is open from `from` included to `to` excluded', () => {
    expect(inside(office, 'UTC', '2025-06-02T08:59:59.999Z')).toBe(false);
    expect(inside(office, 'UTC', '2025-06-02T09:00:00.000Z')).toBe(true);
    expect(inside(office, 'UTC', '2025-06-02T17:59:59.999Z')).toBe(true);
    expect(inside(office, 'UTC', '2025-06-02T18:00:00.000Z')).toBe(false);
  });

  it('gives now inside the window, else the next opening', () => {
    const now = new Date('2025-06-02T12:34:56.789Z');
    expect(nextSendInstant(office, 'UTC', now)).toBe(now);
    expect(next(office, 'UTC', '2025-06-02T08:30:00Z')).toBe('2025-06-02T09:00:00.000Z');
    expect(next(office, 'UTC', '2025-06-02T18:00:00Z')).toBe('2025-06-03T09:00:00.000Z');
    expect(next(office, 'UTC', '2025-12-31T23:59:00Z')).toBe('2026-01-01T09:00:00.000Z');
  });

  it('crosses midnight', () => {
    expect(inside(night, 'UTC', '2025-06-02T23:30:00Z')).toBe(true);
    expect(inside(night, 'UTC', '2025-06-02T05:59:00Z')).toBe(true);
    expect(inside(night, 'UTC', '2025-06-02T06:00:00Z')).toBe(false);
    expect(next(night, 'UTC', '2025-06-02T06:00:00Z')).toBe('2025-06-02T22:00:00.000Z');
    expect(next(night, 'UTC', '2025-06-02T21:59:30Z')).toBe('2025-06-02T22:00:00.000Z');
  });
});

describe('send window in Europe/Madrid across its daylight-saving changes', () => {
  const zone = 'Europe/Madrid';
  // 2025-03-30: 02:00 CET (+01:00) jumps to 03:00 CEST (+02:00) at 01:00Z.
  // 2025-10-26: 03:00 CEST goes back to 02:00 CET at 01:00Z, so 02:00-02:59 happens twice.

  it('reads the wall clock in the zone, on either side of a change', () => {
    expect(next(office, zone, '2025-03-29T21:00:00Z')).toBe('2025-03-30T07:00:00.000Z');
    expect(next(office, zone, '2025-10-25T20:00:00Z')).toBe('2025-10-26T08:00:00.000Z');
    expect(inside(office, zone, '2025-03-30T07:00:00Z')).toBe(true);
    expect(inside(office, zone, '2025-03-30T06:59:00Z')).toBe(false);
  });

  it('crosses midnight on the night the clocks go forward', () => {
    expect(next(night, zone, '2025-03-29T20:00:00Z')).toBe('2025-03-29T21:00:00.000Z');
    expect(inside(night, zone, '2025-03-30T03:59:00Z')).toBe(true);
    expect(inside(night, zone, '2025-03-30T04:00:00Z')).toBe(false);
    expect(next(night, zone, '2025-03-30T04:00:00Z')).toBe('2025-03-30T20:00:00.000Z');
  });

  it('opens a window whose start the clocks skip when they land inside it', () => {
    expect(next({ from: '02:30', to: '04:00' }, zone, '2025-03-30T00:15:00Z')).toBe('2025-03-30T01:00:00.000Z');
  });

  it('waits a day when the clocks skip the whole window', () => {
    expect(next({ from: '02:00', to: '02:30' }, zone, '2025-03-30T00:15:00Z')).toBe('2025-03-31T00:00:00.000Z');
  });

  it('opens at the first of a repeated time, and again at the second', () => {
    const window = { from: '02:30', to: '03:00' };
    expect(next(window, zone, '2025-10-26T00:00:00Z')).toBe('2025-10-26T00:30:00.000Z');
    expect(inside(window, zone, '2025-10-26T00:45:00Z')).toBe(true);
    expect(next(window, zone, '2025-10-26T01:10:00Z')).toBe('2025-10-26T01:30:00.000Z');
  });

  it('reopens when the clocks go back into the window', () => {
    // 02:40 CEST is past the window; at 01:00Z the clock reads 02:00 CET again.
    expect(next({ from: '02:00', to: '02:30' }, zone, '2025-10-26T00:40:00Z')).toBe('2025-10-26T01:00:00.000Z');
  });
});

describe('send window in America/Sao_Paulo', () => {
  const zone = 'America/Sao_Paulo';

  it('uses -03:00 all year since 2019', () => {
    expect(inside({ from: '08:00', to: '20:00' }, zone, '2025-06-01T22:59:00Z')).toBe(true);
    expect(next({ from: '08:00', to: '20:00' }, zone, '2025-06-01T23:30:00Z')).toBe('2025-06-02T11:00:00.000Z');
    expect(next({ from: '08:00', to: '20:00' }, zone, '2025-01-15T10:00:00Z')).toBe('2025-01-15T11:00:00.000Z');
  });

  // Until 2019 its changes were at midnight: 2018-11-04 00:00 (-03) became 01:00 (-02) at 03:00Z;
  // 2019-02-17 00:00 (-02) went back to 2019-02-16 23:00 (-03) at 02:00Z.
  it('handles the changes at midnight it had until 2019', () => {
    expect(next({ from: '00:00', to: '06:00' }, zone, '2018-11-03T12:00:00Z')).toBe('2018-11-04T03:00:00.000Z');
    expect(next({ from: '00:00', to: '00:30' }, zone, '2018-11-03T12:00:00Z')).toBe('2018-11-05T02:00:00.000Z');
    expect(next({ from: '23:00', to: '23:30' }, zone, '2019-02-17T01:45:00Z')).toBe('2019-02-17T02:00:00.000Z');
  });
});

describe('nextSendInstant against a minute-by-minute walk', () => {
  const cases: [SendWindow, string, string][] = [
    [night, 'Europe/Madrid', '2025-03-29T00:00:00Z'],
    [{ from: '02:15', to: '02:45' }, 'Europe/Madrid', '2025-10-25T00:00:00Z'],
    [{ from: '01:30', to: '03:30' }, 'America/New_York', '2025-11-01T00:00:00Z'],
    [{ from: '23:30', to: '00:30' }, 'America/Sao_Paulo', '2018-11-03T00:00:00Z'],
  ];

  it.each(cases)('%j in %s: the first open minute from a run of instants', (window, zone, from) => {
    // Every 151 minutes over three days around the change, so the instants fall at all times of day.
    for (let instant = Date.parse(from); instant < Date.parse(from) + 3 * 86_400_000; instant += 151 * 60_000) {
      const opening = nextSendInstant(window, zone, new Date(instant)).getTime();
      let walk = instant;
      while (!isInsideWindow(window, zone, new Date(walk))) walk = (Math.floor(walk / 60_000) + 1) * 60_000;
      expect(new Date(opening).toISOString()).toBe(new Date(walk).toISOString());
    }
  });
});

describe('time zones', () => {
  it('refuses a zone that is not IANA', () => {
    expect(() => isInsideWindow(office, 'Mars/Olympus', new Date())).toThrow('is not an IANA time zone');
  });
});
