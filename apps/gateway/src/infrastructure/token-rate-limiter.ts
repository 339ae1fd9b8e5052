import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RedisClient } from '@cmsg/platform/redis';

const WINDOW_SECONDS = 60;
const KEY_PREFIX = 'rl:token';

/** Per-replica limiter: the Redis limiter's insurance, and the limiter of unit tests. */
export function createMemoryTokenRateLimiter(pointsPerMinute: number): RateLimiterMemory {
  return new RateLimiterMemory({ points: pointsPerMinute, duration: WINDOW_SECONDS, keyPrefix: KEY_PREFIX });
}

/**
 * RATE_LIMIT_PER_MINUTE requests per token per 60 s, shared by every replica. While Redis is
 * down each replica limits on its own memory instead of failing requests.
 */
export function createRedisTokenRateLimiter(redis: RedisClient, pointsPerMinute: number): RateLimiterAbstract {
  return new RateLimiterRedis({
    storeClient: redis,
    useRedisPackage: true,
    points: pointsPerMinute,
    duration: WINDOW_SECONDS,
    keyPrefix: KEY_PREFIX,
    insuranceLimiter: createMemoryTokenRateLimiter(pointsPerMinute),
  });
}
