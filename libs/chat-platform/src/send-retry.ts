import { CloudApiFailure } from './cloud-api-failure';

/** Waits; a port so that specs run the retries on a fake clock. */
export type Sleeper = (ms: number) => Promise<void>;

export const realSleeper: Sleeper = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

interface RetryRule {
  /** Calls in all, the first included; the last failure is then surfaced as SEND_FAILED. */
  maxAttempts: number;
  /** The wait before retry number `retry` (1 for the second call); `random` is in [0, 1). */
  delayMs(retry: number, random: number): number;
}

/** 130429 (throughput): exponential from 1 s, each wait stretched by up to half again at random, so replicas do not retry in step. */
export const THROUGHPUT_RETRY = { maxAttempts: 5, baseDelayMs: 1_000, jitter: 0.5 } as const;
/** 131056 (pair rate): the platform allows about one message per 6 s to the same user. */
export const PAIR_RATE_RETRY = { maxAttempts: 3, delayMs: 6_000 } as const;

/**
 * CONTRACT 10.3 / 10.5: the two provider answers that mean "not now" rather than "no". Only a call
 * the provider answered with one of these codes is retried: it did not take the message, so the
 * retry cannot make a second copy. No answer at all (timeout, reset) is never retried here.
 */
const RETRY_RULES: Record<number, RetryRule> = {
  130429: {
    maxAttempts: THROUGHPUT_RETRY.maxAttempts,
    delayMs: (retry, random) => Math.round(THROUGHPUT_RETRY.baseDelayMs * 2 ** (retry - 1) * (1 + THROUGHPUT_RETRY.jitter * random)),
  },
  131056: { maxAttempts: PAIR_RATE_RETRY.maxAttempts, delayMs: () => PAIR_RATE_RETRY.delayMs },
};

/** How long to wait before calling again after `attempt` calls ended in `failure`; undefined: do not retry. */
export function retryDelayMs(failure: unknown, attempt: number, random: number): number | undefined {
  if (!(failure instanceof CloudApiFailure) || failure.details.status === undefined) return undefined;
  const code = failure.details.providerError?.code;
  const rule = code === undefined ? undefined : RETRY_RULES[code];
  if (!rule || attempt >= rule.maxAttempts) return undefined;
  return rule.delayMs(attempt, random);
}

/**
 * The longest a send may take with its retries: every call up to its timeout, every wait at its
 * longest. A send still `sending` after this (plus a margin) was cut off by a crash.
 */
export function sendDurationBoundMs(callTimeoutMs: number): number {
  const attempts = Math.max(...Object.values(RETRY_RULES).map((rule) => rule.maxAttempts));
  let waits = 0;
  for (let retry = 1; retry < attempts; retry += 1) waits += Math.max(...Object.values(RETRY_RULES).map((rule) => rule.delayMs(retry, 1)));
  return attempts * callTimeoutMs + waits;
}
