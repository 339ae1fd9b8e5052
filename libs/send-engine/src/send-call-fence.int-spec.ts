import type { RedisClient } from '@cmsg/platform';
import { randomUUID } from 'node:crypto';
import { ChannelRateBudget } from './channel-rate-budget';
import { SendCallFence } from './send-call-fence';
import { closeReplicas, connectReplicas, sleep, uniqueKeyPrefix } from './send-engine.int-fixture';
import { CallFenceDown } from './wait-for-slots';

/** A sender and a recovery on two connections, as two processes would be. */
describe('SendCallFence with the rate budget (real Redis)', () => {
  let replicas: RedisClient[];
  beforeAll(async () => {
    replicas = await connectReplicas(2);
  });
  afterAll(() => closeReplicas(replicas));

  function parts(ttlMs = 60_000) {
    const keyPrefix = uniqueKeyPrefix();
    const channelKey = randomUUID();
    const sendKey = randomUUID();
    return {
      fence: { channelKey, sendKey },
      senderFences: new SendCallFence(replicas[0]!, { keyPrefix, ttlMs }),
      budget: new ChannelRateBudget(replicas[0]!, { keyPrefix }),
      recovery: new SendCallFence(replicas[1]!, { keyPrefix, ttlMs }),
    };
  }

  it('is taken down by the grant of the send\'s slot: a recovery after it learns nothing (the call may have happened)', async () => {
    const { fence, senderFences, budget, recovery } = parts();
    await senderFences.raise(fence);
    await expect(budget.waitForSlots({ channelKey: fence.channelKey, perSecond: 10, priority: 'live', callFence: fence.sendKey })).resolves.toMatchObject({ granted: 1 });
    await expect(recovery.takeDown(fence)).resolves.toBe(false);
  });

  it('taken down by a recovery first, stops the grant: no slot, so no call, and the slot stays free for others', async () => {
    const { fence, senderFences, budget, recovery } = parts();
    await senderFences.raise(fence);
    await expect(recovery.takeDown(fence)).resolves.toBe(true);
    for (const priority of ['live', 'broadcast'] as const) {
      await expect(budget.waitForSlots({ channelKey: fence.channelKey, perSecond: 1, priority, callFence: fence.sendKey })).rejects.toBeInstanceOf(CallFenceDown);
    }
    // Two recoveries: only the first takes the send over.
    await expect(recovery.takeDown(fence)).resolves.toBe(false);
    await expect(budget.acquire({ channelKey: fence.channelKey, perSecond: 1, priority: 'broadcast' })).resolves.toMatchObject({ granted: 1 });
  });

  it('stops a grant that waited for a full window once a recovery took the fence down meanwhile', async () => {
    const { fence, senderFences, budget, recovery } = parts();
    await budget.acquire({ channelKey: fence.channelKey, perSecond: 1, priority: 'broadcast' });
    await senderFences.raise(fence);
    const waiting = budget.waitForSlots({ channelKey: fence.channelKey, perSecond: 1, priority: 'broadcast', callFence: fence.sendKey });
    await sleep(200);
    await expect(recovery.takeDown(fence)).resolves.toBe(true);
    await expect(waiting).rejects.toBeInstanceOf(CallFenceDown);
  });

  it('is gone after its ttl (the send\'s lease): no grant for it then, and no recovery can claim the call did not happen', async () => {
    const { fence, senderFences, budget, recovery } = parts(200);
    await senderFences.raise(fence);
    await sleep(400);
    await expect(recovery.takeDown(fence)).resolves.toBe(false);
    await expect(budget.waitForSlots({ channelKey: fence.channelKey, perSecond: 10, priority: 'live', callFence: fence.sendKey })).rejects.toBeInstanceOf(CallFenceDown);
  });

  it('guards one send: a request for several slots with a fence is refused', async () => {
    const { fence, budget } = parts();
    await expect(budget.acquire({ channelKey: fence.channelKey, perSecond: 10, priority: 'broadcast', count: 2, callFence: fence.sendKey })).rejects.toThrow('count must be 1');
  });
});
