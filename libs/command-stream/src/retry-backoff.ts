export interface RetryPolicy {
  /** Handler runs per command, first one included, before it goes to onPoison. */
  attempts: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 5, initialBackoffMs: 1000, maxBackoffMs: 30_000 };

/**
 * Pause after the given failed attempt (1-based): doubling from initialBackoffMs, capped, with up to
 * 20% jitter taken off so the retries of many keys failing on one outage do not arrive in lockstep.
 */
export function backoffDelayMs(failedAttempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const exponential = policy.initialBackoffMs * 2 ** Math.max(0, failedAttempt - 1);
  const capped = Math.min(policy.maxBackoffMs, exponential);
  return Math.round(capped * (1 - 0.2 * random()));
}

/** Resolves after ms, or as soon as any of the signals aborts. */
export function sleepUnlessAborted(ms: number, ...signals: AbortSignal[]): Promise<void> {
  return new Promise((resolve) => {
    if (signals.some((signal) => signal.aborted)) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      for (const signal of signals) signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    for (const signal of signals) signal.addEventListener('abort', done, { once: true });
  });
}
