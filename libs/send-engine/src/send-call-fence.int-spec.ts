import type { RedisClient } from '@cmsg/platform/redis';
import { randomUUID } from 'node:crypto';
import { ChannelRateBudget } from './channel-rate-budget';
import { type CallFenceKey, SendCallFence } from './send-call-fence';
import { closeReplicas, connectReplicas, sleep, uniqueKeyPrefix } from './send-engine.int-fixture';

/** A sender and recoveries on separate connections, as separate processes would be; the sender passes its fence with the commit of its rate slot. */
describe('SendCallFence (real Redis)', () => {
  let replicas: RedisClient[];
  beforeAll(async () => {
    replicas = await connectReplicas(3);
  });
  afterAll(() => closeReplicas(replicas));

  function parts(ttlMs = 60_000) {
    const keyPrefix = uniqueKeyPrefix();
    const fences = new SendCallFence(replicas[0]!, { keyPrefix, ttlMs });
    const budget = new ChannelRateBudget(replicas[0]!, { keyPrefix });
    return {
      fence: { channelKey: randomUUID(), fenceId: randomUUID() },
      sender: {
        raise: (fence: CallFenceKey) => fences.raise(fence),
        /** True when the commit took the fence down, so the call may go. */
        pass: async ({ channelKey, fenceId }: CallFenceKey) => {
          const { slotId } = await budget.acquire({ channelKey, perSecond: 100, priority: 'live' });
          const committed = await budget.commit({ channelKey, perSecond: 100, slotId: slotId!, fenceId });
          return committed.outcome === 'call';
        },
      },
      recovery: new SendCallFence(replicas[1]!, { keyPrefix, ttlMs }),
      otherRecovery: new SendCallFence(replicas[2]!, { keyPrefix, ttlMs }),
    };
  }

  it('passed by the sender before its call: a recovery after it learns nothing (the call may have happened)', async () => {
    const { fence, sender, recovery } = parts();
    await sender.raise(fence);
    await expect(sender.pass(fence)).resolves.toBe(true);
    await expect(recovery.takeDown(fence)).resolves.toBe(false);
  });

  it('taken down by a recovery first: the sender may not call; of two recoveries racing, one takes the send over', async () => {
    const { fence, sender, recovery, otherRecovery } = parts();
    await sender.raise(fence);
    const taken = await Promise.all([recovery.takeDown(fence), otherRecovery.takeDown(fence)]);
    expect(taken.sort()).toEqual([false, true]);
    await expect(sender.pass(fence)).resolves.toBe(false);
  });

  it('is kept apart per channel and per attempt', async () => {
    const { fence, sender, recovery } = parts();
    await sender.raise(fence);
    await expect(recovery.takeDown({ ...fence, fenceId: randomUUID() })).resolves.toBe(false);
    await expect(recovery.takeDown({ ...fence, channelKey: randomUUID() })).resolves.toBe(false);
    await expect(sender.pass(fence)).resolves.toBe(true);
  });

  it("is gone after its ttl (the send's lease): the sender may not call then, and no recovery can claim the call did not happen", async () => {
    const { fence, sender, recovery } = parts(200);
    await sender.raise(fence);
    await sleep(400);
    await expect(recovery.takeDown(fence)).resolves.toBe(false);
    await expect(sender.pass(fence)).resolves.toBe(false);
  });
});
