import { createLogger } from '@cmsg/platform';
import { type RedisClient, closeRedisClient, createRedisClient } from '@cmsg/platform/redis';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:16379';
const logger = createLogger('test', 'silent');

export { sleep };

/** One connection per simulated replica, as separate processes would have. */
export async function connectReplicas(count: number): Promise<RedisClient[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const client = createRedisClient(REDIS_URL, logger);
      await client.connect();
      return client;
    }),
  );
}

export async function closeReplicas(clients: RedisClient[]): Promise<void> {
  await Promise.all(clients.map((client) => closeRedisClient(client)));
}

/** Each test writes under its own prefix and never sees another's state. */
export function uniqueKeyPrefix(): string {
  return `send-test-${randomUUID()}`;
}

/** The most entries of sorted times that fall in any window of windowMs (half-open). */
export function mostInAnyWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while (sorted[end] - sorted[start] >= windowMs) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

/** An awaited call with the test's clock read just before and just after it. */
export interface TimedCall<T> {
  value: T;
  startedAt: number;
  endedAt: number;
}

export async function timed<T>(call: () => Promise<T>): Promise<TimedCall<T>> {
  const startedAt = Date.now();
  const value = await call();
  return { value, startedAt, endedAt: Date.now() };
}

/**
 * Redis reads its clock somewhere inside each call, so what is left of a span of spanMs that
 * `from` started is bounded by the test's clock around both calls, however slow the machine is
 * (2 ms for the rounding of two clocks to milliseconds).
 */
export function expectRemainingOfSpan(remainingMs: number, spanMs: number, from: TimedCall<unknown>, to: TimedCall<unknown>): void {
  expect(remainingMs).toBeGreaterThanOrEqual(spanMs - (to.endedAt - from.startedAt) - 2);
  expect(remainingMs).toBeLessThanOrEqual(spanMs - (to.startedAt - from.endedAt) + 2);
}
