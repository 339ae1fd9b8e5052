import type { RedisClient } from '@cmsg/platform';
import { randomUUID } from 'node:crypto';
import { ChannelBackOff } from './channel-back-off';
import { SendEngineKeys } from './keys';
import { closeReplicas, connectReplicas, sleep, uniqueKeyPrefix } from './send-engine.int-fixture';

describe('ChannelBackOff (real Redis)', () => {
  let replicas: RedisClient[];
  beforeAll(async () => {
    replicas = await connectReplicas(2);
  });
  afterAll(() => closeReplicas(replicas));

  it('starts at 1 s with up to 50 % jitter', async () => {
    const backOff = new ChannelBackOff(replicas[0], { keyPrefix: uniqueKeyPrefix() });
    await expect(backOff.recordThrottled(randomUUID(), 0)).resolves.toBe(1000);
    await expect(backOff.recordThrottled(randomUUID(), 0.5)).resolves.toBe(1250);
    await expect(backOff.recordThrottled(randomUUID(), 0.999)).resolves.toBe(1499);
  });

  it('doubles with each throttle after the last back-off ended, up to the cap, on every replica', async () => {
    const keyPrefix = uniqueKeyPrefix();
    const channelKey = randomUUID();
    const [first, second] = replicas.map((redis) => new ChannelBackOff(redis, { keyPrefix, baseMs: 40, maxMs: 200 }));
    const waits: number[] = [];
    for (const backOff of [first, second, first, second, first]) {
      const waitMs = await backOff.recordThrottled(channelKey, 0);
      waits.push(waitMs);
      await sleep(waitMs + 5);
    }
    expect(waits).toEqual([40, 80, 160, 200, 200]);
  });

  it('counts throttles answered during a back-off as the same burst: no higher level, no longer wait', async () => {
    const keyPrefix = uniqueKeyPrefix();
    const channelKey = randomUUID();
    const backOff = new ChannelBackOff(replicas[0], { keyPrefix, baseMs: 100 });
    await expect(backOff.recordThrottled(channelKey, 0)).resolves.toBe(100);
    const sameBurst = await backOff.recordThrottled(channelKey, 0);
    expect(sameBurst).toBeGreaterThan(50);
    expect(sameBurst).toBeLessThanOrEqual(100);
    await sleep(110);
    await expect(backOff.recordThrottled(channelKey, 0)).resolves.toBe(200);
  });

  it('starts again from the base once the channel has gone a while without a throttle', async () => {
    const keyPrefix = uniqueKeyPrefix();
    const channelKey = randomUUID();
    const backOff = new ChannelBackOff(replicas[0], { keyPrefix, baseMs: 20, levelTtlMs: 150 });
    await expect(backOff.recordThrottled(channelKey, 0)).resolves.toBe(20);
    await sleep(30);
    await expect(backOff.recordThrottled(channelKey, 0)).resolves.toBe(40);
    const keys = new SendEngineKeys(keyPrefix);
    expect(await replicas[0].pTTL(keys.backOffLevel(channelKey))).toBeLessThanOrEqual(150);
    await sleep(200);
    await expect(backOff.recordThrottled(channelKey, 0)).resolves.toBe(20);
  });
});
