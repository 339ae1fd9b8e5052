import { parseUpdatedSince } from './updated-since';

describe('parseUpdatedSince', () => {
  it.each([
    ['2025-01-31T18:04:05Z', '2025-01-31T18:04:05.000Z'],
    ['2025-01-31T18:04:05.123Z', '2025-01-31T18:04:05.123Z'],
    ['2025-01-31T19:04:05.123+01:00', '2025-01-31T18:04:05.123Z'],
    ['2025-01-31T18:04:05.123000Z', '2025-01-31T18:04:05.123Z'],
    // Finer than the stored precision: the first stored instant at or after it.
    ['2025-01-31T18:04:05.123001Z', '2025-01-31T18:04:05.124Z'],
    ['2025-01-31T18:04:05.0000001Z', '2025-01-31T18:04:05.001Z'],
  ])('%s is %s', (value, instant) => {
    expect(parseUpdatedSince(value)?.toISOString()).toBe(instant);
  });

  it('is undefined when absent and INVALID_REQUEST when not a date-time', () => {
    expect(parseUpdatedSince(undefined)).toBeUndefined();
    expect(() => parseUpdatedSince('yesterday')).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
  });
});
