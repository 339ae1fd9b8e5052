import { DEFAULT_WEBHOOK_RETRY_POLICY, nextWebhookAttemptAt, webhookRetryDelayMs } from './webhook-retry';

describe('webhook retry schedule', () => {
  it('doubles from 5 s and caps at 1 h', () => {
    expect([1, 2, 3, 4, 10, 11, 20].map((attempt) => webhookRetryDelayMs(attempt, DEFAULT_WEBHOOK_RETRY_POLICY))).toEqual([
      5_000, 10_000, 20_000, 40_000, 2_560_000, 3_600_000, 3_600_000,
    ]);
  });

  it('gives up once the next attempt would fall after 24 h', () => {
    const created = new Date('2026-01-01T00:00:00Z');
    expect(nextWebhookAttemptAt(1, created, created, DEFAULT_WEBHOOK_RETRY_POLICY)).toEqual(new Date('2026-01-01T00:00:05Z'));
    const late = new Date('2026-01-01T23:30:00Z');
    expect(nextWebhookAttemptAt(12, created, late, DEFAULT_WEBHOOK_RETRY_POLICY)).toBeNull();
  });

  it('keeps retrying for about 24 h: 33 attempts with the defaults (10 doubling, then hourly)', () => {
    const created = new Date('2026-01-01T00:00:00Z');
    let now = created;
    let attempts = 0;
    for (;;) {
      attempts += 1;
      const next = nextWebhookAttemptAt(attempts, created, now, DEFAULT_WEBHOOK_RETRY_POLICY);
      if (!next) break;
      now = next;
    }
    expect(now.getTime() - created.getTime()).toBeGreaterThan(23 * 3_600_000);
    expect(attempts).toBe(33);
  });
});
