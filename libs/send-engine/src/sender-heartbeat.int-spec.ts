import type { RedisClient } from '@cmsg/platform/redis';
import { randomUUID } from 'node:crypto';
import { closeReplicas, connectReplicas, sleep, uniqueKeyPrefix } from './send-engine.int-fixture';
import { SenderHeartbeat } from './sender-heartbeat';

describe('SenderHeartbeat (real Redis)', () => {
  let replicas: RedisClient[];
  beforeAll(async () => {
    replicas = await connectReplicas(2);
  });
  afterAll(() => closeReplicas(replicas));

  it('shows a started process running to another, and stopped once it stops', async () => {
    const keyPrefix = uniqueKeyPrefix();
    const [sender, observer] = replicas.map((redis) => new SenderHeartbeat(redis, { keyPrefix }));
    await sender!.start();
    await expect(observer!.isRunning(sender!.processId)).resolves.toBe(true);
    await sender!.stop();
    await expect(observer!.isRunning(sender!.processId)).resolves.toBe(false);
  });

  it('keeps a process running past its ttl while it renews, and drops it ttl after its last renewal (a process killed)', async () => {
    const keyPrefix = uniqueKeyPrefix();
    const [killed] = await connectReplicas(1);
    // A ttl of 3 s, renewed every 100 ms: a loaded machine's pause of a second or two between two renewals,
    // or between the last one and the reads below, stays inside it.
    const ttlMs = 3000;
    const sender = new SenderHeartbeat(killed!, { keyPrefix, ttlMs, intervalMs: 100 });
    const observer = new SenderHeartbeat(replicas[0]!, { keyPrefix });
    await sender.start();
    await sleep(ttlMs + 300);
    await expect(observer.isRunning(sender.processId)).resolves.toBe(true);
    // Its connection gone, as with kill -9: no more renewals, and no goodbye either.
    await killed!.disconnect();
    await expect(observer.isRunning(sender.processId)).resolves.toBe(true);
    await sleep(ttlMs + 100);
    await expect(observer.isRunning(sender.processId)).resolves.toBe(false);
  });

  it('counts a process it cannot ask about as running (the lease decides), and itself as running', async () => {
    const [unreachable] = await connectReplicas(1);
    const heartbeat = new SenderHeartbeat(unreachable!, { keyPrefix: uniqueKeyPrefix() });
    await unreachable!.disconnect();
    await expect(heartbeat.isRunning(randomUUID())).resolves.toBe(true);
    await expect(heartbeat.isRunning(heartbeat.processId)).resolves.toBe(true);
  });

  it('never shows a process that did not start', async () => {
    const observer = new SenderHeartbeat(replicas[0]!, { keyPrefix: uniqueKeyPrefix() });
    await expect(observer.isRunning(randomUUID())).resolves.toBe(false);
  });
});
