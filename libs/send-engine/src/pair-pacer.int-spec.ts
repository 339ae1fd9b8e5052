import type { RedisClient } from '@cmsg/platform/redis';
import { randomUUID } from 'node:crypto';
import { SendEngineKeys } from './keys';
import { PairPacer } from './pair-pacer';
import { closeReplicas, connectReplicas, expectRemainingOfSpan, sleep, timed, uniqueKeyPrefix } from './send-engine.int-fixture';

describe('PairPacer (real Redis)', () => {
  let replicas: RedisClient[];
  beforeAll(async () => {
    replicas = await connectReplicas(2);
  });
  afterAll(() => closeReplicas(replicas));

  it('keeps a broadcast send intervalMs after the last send to the pair, without moving that send', async () => {
    const keyPrefix = uniqueKeyPrefix();
    const [first, second] = replicas.map((redis) => new PairPacer(redis, { keyPrefix }));
    const pair = { channelKey: randomUUID(), contactKey: randomUUID(), intervalMs: 1000 };
    const firstSend = await timed(() => first.reserve({ ...pair, mode: 'wait' }));
    expect(firstSend.value).toEqual({ retryInMs: 0 });
    await sleep(100);
    const tooSoon = await timed(() => second.reserve({ ...pair, mode: 'wait' }));
    expect(tooSoon.value.retryInMs).toBeGreaterThan(0);
    expectRemainingOfSpan(tooSoon.value.retryInMs, pair.intervalMs, firstSend, tooSoon);
    await expect(first.reserve({ ...pair, contactKey: randomUUID(), mode: 'wait' })).resolves.toEqual({ retryInMs: 0 });
    await sleep(tooSoon.value.retryInMs + 5);
    await expect(second.reserve({ ...pair, mode: 'wait' })).resolves.toEqual({ retryInMs: 0 });
  });

  it('lets a live send through at once and makes the next broadcast send wait from it', async () => {
    const keyPrefix = uniqueKeyPrefix();
    const pacer = new PairPacer(replicas[0], { keyPrefix });
    const pair = { channelKey: randomUUID(), contactKey: randomUUID(), intervalMs: 1000 };
    await expect(pacer.reserve({ ...pair, mode: 'wait' })).resolves.toEqual({ retryInMs: 0 });
    await sleep(200);
    await expect(pacer.reserve({ ...pair, mode: 'record' })).resolves.toEqual({ retryInMs: 0 });
    const lastLive = await timed(() => pacer.reserve({ ...pair, mode: 'record' }));
    expect(lastLive.value).toEqual({ retryInMs: 0 });
    const afterLive = await timed(() => pacer.reserve({ ...pair, mode: 'wait' }));
    expect(afterLive.value.retryInMs).toBeGreaterThan(0);
    expectRemainingOfSpan(afterLive.value.retryInMs, pair.intervalMs, lastLive, afterLive);

    const ttl = await replicas[0].pTTL(new SendEngineKeys(keyPrefix).pairLastSend(pair.channelKey, pair.contactKey));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(pair.intervalMs);
  });
});
