export interface WebhookRetryPolicy {
  /** Delay after the first failed attempt; doubles after each further one. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** How long after its creation a delivery is still attempted (CONTRACT 4: 24 h). */
  retentionMs: number;
}

export const DEFAULT_WEBHOOK_RETRY_POLICY: WebhookRetryPolicy = { baseDelayMs: 5_000, maxDelayMs: 3_600_000, retentionMs: 24 * 3_600_000 };

/** Next attempt after `failedAttempts` failures (1-based): 5 s, 10 s, 20 s ... capped at 1 h. */
export function webhookRetryDelayMs(failedAttempts: number, policy: WebhookRetryPolicy): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, failedAttempts - 1));
}

/** When to try again, or null when the delivery is past its 24 h and is abandoned. */
export function nextWebhookAttemptAt(failedAttempts: number, createdAt: Date, now: Date, policy: WebhookRetryPolicy): Date | null {
  const next = new Date(now.getTime() + webhookRetryDelayMs(failedAttempts, policy));
  return next.getTime() > createdAt.getTime() + policy.retentionMs ? null : next;
}
