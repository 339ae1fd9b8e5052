import { backoffDelayMs, sleepUnlessAborted } from './retry-backoff';

describe('backoffDelayMs', () => {
  const policy = { attempts: 5, initialBackoffMs: 100, maxBackoffMs: 1000 };

  it.each([
    [1, 100],
    [2, 200],
    [3, 400],
    [4, 800],
    [5, 1000],
    [20, 1000],
  ])('after failed attempt %i waits %i ms without jitter', (attempt, expected) => {
    expect(backoffDelayMs(attempt, policy, () => 0)).toBe(expected);
  });

  it('takes at most 20% off for jitter', () => {
    expect(backoffDelayMs(3, policy, () => 0.999999)).toBe(320);
  });
});

describe('sleepUnlessAborted', () => {
  it('returns early when a signal aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 10);
    // A 30 s sleep, and half of it as the bound: early, by a margin no pause of a loaded machine takes.
    await sleepUnlessAborted(30_000, new AbortController().signal, controller.signal);
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 20_000);
});
