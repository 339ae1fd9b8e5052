import type { RedisClient } from '@cmsg/platform/redis';
import { randomUUID } from 'node:crypto';
import { withinOneWindow } from '@cmsg/testing';
import { ChannelBackOff } from './channel-back-off';
import { SendEngineKeys } from './keys';
import { closeReplicas, connectReplicas, expectRemainingOfSpan, sleep, timed, uniqueKeyPrefix } from './send-engine.int-fixture';

describe('ChannelBackOff (real Redis)', () => {
  let replicas: RedisClient[];
  beforeAll(async () => {
    replicas = await connectReplicas(2);
  });
  afterAll(() => closeReplicas(replicas));

  it('starts at 1 s with up to 50 % jitter', async () => {
    const backOff = new ChannelBackOff(replicas[0], { keyPrefix: uniqueKeyPrefix() });
    await expect(backOff.recordThrottled(randomUUID(), 0)).resolves.toMatchObject({ backOffMs: 1000 });
    await expect(backOff.recordThrottled(randomUUID(), 0.5)).resolves.toMatchObject({ backOffMs: 1250 });
    await expect(backOff.recordThrottled(randomUUID(), 0.999)).resolves.toMatchObject({ backOffMs: 1499 });
  });

  it('doubles with each throttle after the last back-off ended, up to the cap, on every replica', async () => {
    const keyPrefix = uniqueKeyPrefix();
    const channelKey = randomUUID();
    const [first, second] = replicas.map((redis) => new ChannelBackOff(redis, { keyPrefix, baseMs: 40, maxMs: 200 }));
    const waits: number[] = [];
    for (const backOff of [first, second, first, second, first]) {
      const { backOffMs: waitMs } = await backOff.recordThrottled(channelKey, 0);
      waits.push(waitMs);
      await sleep(waitMs + 5);
    }
    expect(waits).toEqual([40, 80, 160, 200, 200]);
  });

  it('counts throttles answered during a back-off as the same burst: no higher level, no longer wait', async () => {
    const keyPrefix = uniqueKeyPrefix();
    const channelKey = randomUUID();
    // A back-off of 3 s: long beside a loaded machine's pauses, so the second throttle comes inside it.
    const backOff = new ChannelBackOff(replicas[0], { keyPrefix, baseMs: 3000 });
    const burst = await timed(() => backOff.recordThrottled(channelKey, 0));
    expect(burst.value).toMatchObject({ backOffMs: 3000 });
    const sameBurst = await timed(() => backOff.recordThrottled(channelKey, 0));
    expect(sameBurst.value.backOffMs).toBeGreaterThan(0);
    expectRemainingOfSpan(sameBurst.value.backOffMs, 3000, burst, sameBurst);
    await sleep(sameBurst.value.backOffMs + 10);
    await expect(backOff.recordThrottled(channelKey, 0)).resolves.toMatchObject({ backOffMs: 6000 });
  });

  it('starts again from the base once the channel has gone a while without a throttle', async () => {
    const keyPrefix = uniqueKeyPrefix();
    const channelKey = randomUUID();
    // A level kept 4 s: long beside the 0.2 s back-off and a loaded machine's pauses of a second or two,
    // so it does not expire before the second throttle.
    const backOff = new ChannelBackOff(replicas[0], { keyPrefix, baseMs: 200, levelTtlMs: 4000 });
    await expect(backOff.recordThrottled(channelKey, 0)).resolves.toMatchObject({ backOffMs: 200 });
    await sleep(210);
    await expect(backOff.recordThrottled(channelKey, 0)).resolves.toMatchObject({ backOffMs: 400 });
    const keys = new SendEngineKeys(keyPrefix);
    expect(await replicas[0].pTTL(keys.backOffLevel(channelKey))).toBeLessThanOrEqual(4000);
    await sleep(4100);
    await expect(backOff.recordThrottled(channelKey, 0)).resolves.toMatchObject({ backOffMs: 200 });
  });

  it('starts again from the base once the provider accepts a call granted after the back-off ended', async () => {
    const keyPrefix = uniqueKeyPrefix();
    const channelKey = randomUUID();
    // A settle time of 4 s: long beside the back-offs and a loaded machine's pauses of a second or two,
    // so the first accepted call lands inside it.
    const backOff = new ChannelBackOff(replicas[0], { keyPrefix, baseMs: 40, settleMs: 4000 });
    await expect(backOff.recordThrottled(channelKey, 0)).resolves.toMatchObject({ backOffMs: 40 });
    await sleep(60);
    // Within the settle time after the back-off: as a call granted before it, answered late.
    await backOff.recordAccepted(channelKey);
    await expect(backOff.recordThrottled(channelKey, 0)).resolves.toMatchObject({ backOffMs: 80 });
    await sleep(80 + 4100);
    await backOff.recordAccepted(channelKey);
    await expect(backOff.recordThrottled(channelKey, 0)).resolves.toMatchObject({ backOffMs: 40 });
  });

  it('learns what the provider took: the calls it accepted in the second before the burst, the most any of its throttles saw', async () => {
    // The provider's take is counted over the last second of Redis's clock: a run is judged only when all
    // its calls fell inside one second of the test's clock, which a loaded machine's pause could split.
    const run = await withinOneWindow(1000, async () => {
      const keyPrefix = uniqueKeyPrefix();
      const channelKey = randomUUID();
      // A back-off of 5 s: long beside such pauses, so every throttle below is of the same burst.
      const [first, second] = replicas.map((redis) => new ChannelBackOff(redis, { keyPrefix, baseMs: 5000 }));
      for (let call = 0; call < 30; call += 1) await (call % 2 === 0 ? first : second).recordAccepted(channelKey);
      const learned = await first.recordThrottled(channelKey, 0);
      const sameBurst = await second.recordThrottled(channelKey, 0);
      for (let call = 0; call < 10; call += 1) await first.recordAccepted(channelKey);
      const best = await second.recordThrottled(channelKey, 0);
      const stored = await replicas[0].hGet(new SendEngineKeys(keyPrefix).learnedRate(channelKey), 'rate');
      return { learned, sameBurst, best, stored };
    });
    // The provider took 30 in the last second: the channel keeps to 95 % of it.
    expect(run.learned).toEqual({ backOffMs: 5000, learnedPerSecond: 28 });
    // A throttle of the same burst that saw no more: nothing new.
    expect(run.sameBurst).toMatchObject({ learnedPerSecond: null });
    // Calls accepted during the burst (answered late): the best of the burst wins.
    expect(run.best).toMatchObject({ learnedPerSecond: 38 });
    expect(run.stored).toBe('38');
  });

  it('learns nothing from a throttle when the provider accepted nothing in the last second', async () => {
    const keyPrefix = uniqueKeyPrefix();
    const channelKey = randomUUID();
    const backOff = new ChannelBackOff(replicas[0], { keyPrefix, baseMs: 50 });
    await backOff.recordAccepted(channelKey);
    await sleep(1_050);
    await expect(backOff.recordThrottled(channelKey, 0)).resolves.toEqual({ backOffMs: 50, learnedPerSecond: null });
  });
});
