import { gapPercentile, maxInAnyWindow } from './arrival-windows';

describe('maxInAnyWindow', () => {
  it('counts the busiest window, events less than the window apart sharing it', () => {
    expect(maxInAnyWindow([])).toBe(0);
    expect(maxInAnyWindow([5])).toBe(1);
    expect(maxInAnyWindow([0, 999.9])).toBe(2);
    expect(maxInAnyWindow([0, 1000])).toBe(1);
    expect(maxInAnyWindow([0, 100, 200, 1050, 1100, 1150, 1199])).toBe(5);
  });

  it('takes times in any order and any window length', () => {
    expect(maxInAnyWindow([300, 0, 250, 10, 260], 100)).toBe(3);
    expect(maxInAnyWindow([3, 1, 2, 1], 1)).toBe(2);
  });

  it('sees 80 evenly paced events a second as 80 per window, one burst as all of them', () => {
    const paced = Array.from({ length: 400 }, (_, index) => index * 12.5);
    expect(maxInAnyWindow(paced)).toBe(80);
    expect(maxInAnyWindow([...paced, 2000.1, 2000.2])).toBe(82);
  });

  it('refuses a window that is not positive', () => {
    expect(() => maxInAnyWindow([1], 0)).toThrow(RangeError);
  });
});

describe('gapPercentile', () => {
  const times = [40, 0, 10, 30, 100];

  it('gives nearest-rank percentiles of the gaps between consecutive events', () => {
    // gaps once sorted: 10, 10, 20, 60
    expect(gapPercentile(times, 0)).toBe(10);
    expect(gapPercentile(times, 50)).toBe(10);
    expect(gapPercentile(times, 51)).toBe(20);
    expect(gapPercentile(times, 75)).toBe(20);
    expect(gapPercentile(times, 99)).toBe(60);
    expect(gapPercentile(times, 100)).toBe(60);
  });

  it('is NaN with fewer than two events and refuses p outside 0-100', () => {
    expect(gapPercentile([], 50)).toBeNaN();
    expect(gapPercentile([1], 50)).toBeNaN();
    expect(() => gapPercentile(times, 101)).toThrow(RangeError);
    expect(() => gapPercentile(times, Number.NaN)).toThrow(RangeError);
  });
});
