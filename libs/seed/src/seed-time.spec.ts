import { isSeedTime, resolveSeedTime } from './seed-time';

const NOW = new Date('2025-06-15T12:00:00.000Z');

describe('seed times', () => {
  it.each([
    ['now', '2025-06-15T12:00:00.000Z'],
    ['now-2h', '2025-06-15T10:00:00.000Z'],
    ['now+30m', '2025-06-15T12:30:00.000Z'],
    ['now-3d', '2025-06-12T12:00:00.000Z'],
    ['now-1w', '2025-06-08T12:00:00.000Z'],
    ['now-90s', '2025-06-15T11:58:30.000Z'],
    ['2025-01-02T03:04:05-06:00', '2025-01-02T09:04:05.000Z'],
  ])('resolves %s', (value, expected) => {
    expect(isSeedTime(value)).toBe(true);
    expect(resolveSeedTime(value, NOW).toISOString()).toBe(expected);
  });

  it('refuses what it does not know', () => {
    expect(isSeedTime('now-2x')).toBe(false);
    expect(() => resolveSeedTime('tomorrow', NOW)).toThrow('not a seed time');
  });
});
