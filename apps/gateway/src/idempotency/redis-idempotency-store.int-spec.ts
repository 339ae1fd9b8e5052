import { createLogger } from '@cmsg/platform';
import { type RedisClient, closeRedisClient, createRedisClient } from '@cmsg/platform/redis';
import { randomUUID } from 'node:crypto';
import { IDEMPOTENCY_IN_PROGRESS_LEASE_SECONDS, IDEMPOTENCY_REPLAY_TTL_SECONDS, type StoredResponse } from './idempotency-store';
import { RedisIdempotencyStore } from './redis-idempotency-store';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:16379';
const response: StoredResponse = { status: 201, body: { note: { uuid: 'n1' } }, headers: { 'Retry-After': '3' } };

describe('RedisIdempotencyStore (real Redis)', () => {
  let redis: RedisClient;
  let store: RedisIdempotencyStore;
  let scope: { tokenUuid: string; key: string };
  const redisKey = () => `idem:${scope.tokenUuid}:${scope.key}`;

  beforeAll(async () => {
    redis = createRedisClient(REDIS_URL, createLogger('test', 'silent'));
    await redis.connect();
    store = new RedisIdempotencyStore(redis);
  });
  afterAll(() => closeRedisClient(redis));
  beforeEach(() => {
    scope = { tokenUuid: randomUUID(), key: `key-${randomUUID()}` };
  });

  it('claims a new key with a lease, then stores the response for 24 h', async () => {
    const claim = await store.claim(scope, 'fp');
    if (claim.outcome !== 'claimed') throw new Error(`expected claimed, got ${claim.outcome}`);
    const leaseTtl = await redis.ttl(redisKey());
    expect(leaseTtl).toBeGreaterThan(0);
    expect(leaseTtl).toBeLessThanOrEqual(IDEMPOTENCY_IN_PROGRESS_LEASE_SECONDS);

    await expect(store.claim(scope, 'fp')).resolves.toEqual({ outcome: 'in_progress', fingerprint: 'fp' });

    await claim.handle.complete(response);
    await expect(store.claim(scope, 'fp')).resolves.toEqual({ outcome: 'completed', fingerprint: 'fp', response });
    expect(await redis.ttl(redisKey())).toBeGreaterThan(IDEMPOTENCY_REPLAY_TTL_SECONDS - 10);
  });

  it('reports the stored fingerprint so another request can be refused', async () => {
    const claim = await store.claim(scope, 'fp-1');
    if (claim.outcome === 'claimed') await claim.handle.complete(response);
    await expect(store.claim(scope, 'fp-2')).resolves.toMatchObject({ outcome: 'completed', fingerprint: 'fp-1' });
  });

  it('forgets the stored responses that mention a string, of every token, and keeps the others (a contact erasure)', async () => {
    const contact = randomUUID();
    const stored = async (tokenUuid: string, body: unknown) => {
      const keyed = { tokenUuid, key: `key-${randomUUID()}` };
      const claim = await store.claim(keyed, 'fp');
      if (claim.outcome !== 'claimed') throw new Error('expected claimed');
      await claim.handle.complete({ status: 201, body, headers: {} });
      return keyed;
    };
    const mentioning = [await stored(randomUUID(), { contact: { uuid: contact, first_name: 'Ana' } }), await stored(randomUUID(), { items: [{ uuid: contact }] })];
    const unrelated = await stored(randomUUID(), { contact: { uuid: randomUUID() } });
    await expect(store.forgetResponsesMentioning([contact, randomUUID()])).resolves.toBe(2);
    for (const keyed of mentioning) await expect(store.claim(keyed, 'fp')).resolves.toMatchObject({ outcome: 'claimed' });
    await expect(store.claim(unrelated, 'fp')).resolves.toMatchObject({ outcome: 'completed' });
  });

  it('release frees the key for the next claim', async () => {
    const claim = await store.claim(scope, 'fp');
    if (claim.outcome !== 'claimed') throw new Error('expected claimed');
    await claim.handle.release();
    await expect(store.claim(scope, 'fp')).resolves.toMatchObject({ outcome: 'claimed' });
  });

  it('a claim whose lease was lost cannot settle the new owner’s claim', async () => {
    const stale = await store.claim(scope, 'fp');
    if (stale.outcome !== 'claimed') throw new Error('expected claimed');
    await redis.del(redisKey());
    const current = await store.claim(scope, 'fp');
    expect(current.outcome).toBe('claimed');
    await stale.handle.complete(response);
    await stale.handle.release();
    await expect(store.claim(scope, 'fp')).resolves.toEqual({ outcome: 'in_progress', fingerprint: 'fp' });
  });

  it('keys are per token', async () => {
    await store.claim(scope, 'fp');
    await expect(store.claim({ ...scope, tokenUuid: randomUUID() }, 'fp')).resolves.toMatchObject({ outcome: 'claimed' });
  });
});
