import { createLogger } from '@cmsg/platform';
import { type RedisClient, closeRedisClient, createRedisClient } from '@cmsg/platform/redis';
import { randomUUID } from 'node:crypto';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { createRedisTokenRateLimiter } from './token-rate-limiter';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:16379';
const logger = createLogger('test', 'silent');

describe('createRedisTokenRateLimiter (real Redis)', () => {
  let redis: RedisClient;
  beforeAll(async () => {
    redis = createRedisClient(REDIS_URL, logger);
    await redis.connect();
  });
  afterAll(() => closeRedisClient(redis));

  it('counts per token in rl:token:<uuid> for 60 s and rejects past the limit', async () => {
    const limiter = createRedisTokenRateLimiter(redis, 2);
    const tokenUuid = randomUUID();
    await expect(limiter.consume(tokenUuid)).resolves.toMatchObject({ remainingPoints: 1 });
    await expect(limiter.consume(tokenUuid)).resolves.toMatchObject({ remainingPoints: 0 });
    const rejection = await limiter.consume(tokenUuid).catch((error: unknown) => error);
    expect(rejection).toBeInstanceOf(RateLimiterRes);
    expect((rejection as RateLimiterRes).msBeforeNext).toBeGreaterThan(55_000);
    expect(Number(await redis.get(`rl:token:${tokenUuid}`))).toBe(3);
    expect(await redis.ttl(`rl:token:${tokenUuid}`)).toBeLessThanOrEqual(60);
  });

  it('is shared by every limiter on the same Redis (every replica)', async () => {
    const tokenUuid = randomUUID();
    await createRedisTokenRateLimiter(redis, 1).consume(tokenUuid);
    await expect(createRedisTokenRateLimiter(redis, 1).consume(tokenUuid)).rejects.toBeInstanceOf(RateLimiterRes);
  });

  it('falls back to the in-memory insurance limiter while Redis is unreachable', async () => {
    const unreachable = createRedisClient('redis://127.0.0.1:1', logger);
    unreachable.connect().catch(() => undefined);
    const limiter = createRedisTokenRateLimiter(unreachable, 1);
    const tokenUuid = randomUUID();
    await expect(limiter.consume(tokenUuid)).resolves.toMatchObject({ remainingPoints: 0 });
    await expect(limiter.consume(tokenUuid)).rejects.toBeInstanceOf(RateLimiterRes);
    await unreachable.disconnect().catch(() => undefined);
  });
});
