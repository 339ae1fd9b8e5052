import { retryAfterSeconds } from './rate-limit.middleware';

describe('retryAfterSeconds', () => {
  it.each([
    [0, 1],
    [1, 1],
    [999, 1],
    [1000, 1],
    [1001, 2],
    [59_500, 60],
  ])('%i ms before the next slot -> %i s', (ms, seconds) => {
    expect(retryAfterSeconds(ms)).toBe(seconds);
  });
});
