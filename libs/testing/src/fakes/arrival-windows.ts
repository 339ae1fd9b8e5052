/**
 * Measures on event times in ms (e.g. the `at_ms` of the sends a fake accepted), for tests and
 * benches that check pacing: the busiest window and the spacing between consecutive events.
 */

/**
 * The largest number of events in any window `[t, t + windowMs)`: two events share a window when
 * they are less than `windowMs` apart. 0 for no events. Times may come in any order.
 */
export function maxInAnyWindow(timesMs: readonly number[], windowMs = 1_000): number {
  if (!(windowMs > 0)) throw new RangeError(`maxInAnyWindow: windowMs must be > 0, got ${windowMs}`);
  const times = ascending(timesMs);
  let most = 0;
  let first = 0;
  for (let last = 0; last < times.length; last += 1) {
    while (times[last]! - times[first]! >= windowMs) first += 1;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

/**
 * The p-th percentile (0-100, nearest rank) of the gaps between consecutive events once sorted:
 * p 0 is the smallest gap, 100 the largest. NaN when there are fewer than two events.
 */
export function gapPercentile(timesMs: readonly number[], p: number): number {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`gapPercentile: p must be within 0-100, got ${p}`);
  const times = ascending(timesMs);
  if (times.length < 2) return Number.NaN;
  const gaps = times
    .slice(1)
    .map((time, index) => time - times[index]!)
    .sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * gaps.length));
  return gaps[rank - 1]!;
}

/** The times in ascending order; the input itself when it already is (records come in arrival order). */
function ascending(timesMs: readonly number[]): readonly number[] {
  for (let index = 1; index < timesMs.length; index += 1) {
    if (timesMs[index]! < timesMs[index - 1]!) return [...timesMs].sort((a, b) => a - b);
  }
  return timesMs;
}
