import type { RedisClient } from '@cmsg/platform/redis';
import type { ReadinessCheck } from './readiness-check';

export function redisReadinessCheck(redis: RedisClient): ReadinessCheck {
  return {
    name: 'redis',
    check: async () => {
      const answer = await redis.ping();
      if (answer !== 'PONG') throw new Error(`Redis answered PING with ${answer}`);
    },
  };
}
