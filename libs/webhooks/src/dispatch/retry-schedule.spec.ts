import { DEFAULT_WEBHOOK_RETRY_POLICY, nextWebhookAttemptAt, webhookRetryDelayMs } from './retry-schedule';

describe('webhook retry schedule', () => {
  it('doubles from 5 s and caps at 1 h', () => {
    expect([1, 2, 3, 4, 10, 11, 20].map((attempt) => webhookRetryDelayMs(attempt, DEFAULT_WEBHOOK_RETRY_POLICY))).toEqual([
      5_000, 10_000, 20_000, 40_000, 2_560_000, 3_600_000, 3_600_000,
    ]);
  });

  it('jitters between half the delay and the whole delay', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const until = new Date('2026-01-02T00:00:00Z');
    expect(nextWebhookAttemptAt(3, until, now, DEFAULT_WEBHOOK_RETRY_POLICY, () => 0)).toEqual(new Date(now.getTime() + 10_000));
    expect(nextWebhookAttemptAt(3, until, now, DEFAULT_WEBHOOK_RETRY_POLICY, () => 0.999999)).toEqual(new Date(now.getTime() + 20_000));
  });

  it('gives up once the next attempt would fall after the retry window', () => {
    const until = new Date('2026-01-02T00:00:00Z');
    expect(nextWebhookAttemptAt(12, until, new Date('2026-01-01T23:31:00Z'), DEFAULT_WEBHOOK_RETRY_POLICY, () => 0)).toBeNull();
  });

  it('keeps retrying for about 24 h: between 33 (whole delays) and 60 (half delays) attempts with the defaults', () => {
    const start = new Date('2026-01-01T00:00:00Z');
    const until = new Date(start.getTime() + 24 * 3_600_000);
    for (const random of [() => 0, () => 0.999999, Math.random]) {
      let now = start;
      let attempts = 0;
      for (;;) {
        attempts += 1;
        const next = nextWebhookAttemptAt(attempts, until, now, DEFAULT_WEBHOOK_RETRY_POLICY, random);
        if (!next) break;
        now = next;
      }
      expect(now.getTime() - start.getTime()).toBeGreaterThan(22 * 3_600_000);
      expect(attempts).toBeGreaterThanOrEqual(33);
      expect(attempts).toBeLessThanOrEqual(60);
    }
  });
});
