export interface WebhookRetryPolicy {
  /** Delay after the first failed attempt; doubles after each further one. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_WEBHOOK_RETRY_POLICY: WebhookRetryPolicy = { baseDelayMs: 5_000, maxDelayMs: 3_600_000 };

/** Nominal delay after `failedAttempts` failures (1-based): 5 s, 10 s, 20 s ... capped at 1 h. */
export function webhookRetryDelayMs(failedAttempts: number, policy: WebhookRetryPolicy): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, failedAttempts - 1));
}

/**
 * When to try again: the nominal delay with "equal jitter" (between half of it and all of it), so
 * deliveries that failed together (a receiver down) do not all come back at the same instant.
 * Null when that falls after `retryUntil`: the delivery has failed.
 */
export function nextWebhookAttemptAt(failedAttempts: number, retryUntil: Date, now: Date, policy: WebhookRetryPolicy, random: () => number = Math.random): Date | null {
  const delay = webhookRetryDelayMs(failedAttempts, policy);
  const next = new Date(now.getTime() + Math.round(delay / 2 + (random() * delay) / 2));
  return next.getTime() > retryUntil.getTime() ? null : next;
}
