import { CommandStreamFixture, commandId, keysNamed, sleep, waitUntil, type TestCommand } from './command-stream.int-fixture';
import type { CommandContext } from './consumer-options';

// Its own waits add up to about 25 s; the deadlines of a loaded machine's waits, more.
jest.setTimeout(90_000);

const LIVENESS = { sessionTimeout: 6000, heartbeatInterval: 1000 };

describe('command stream against a real broker: group membership while work takes long', () => {
  const fixture = new CommandStreamFixture();

  beforeAll(() => fixture.connect());
  afterAll(() => fixture.close());

  it('keeps its group membership through a 15 s handler with a 6 s session timeout: one join, one delivery', async () => {
    const { topic, groupId, producer } = await fixture.newStream(1);
    const [longKey] = keysNamed('long', 1);
    const otherKeys = keysNamed('other', 3);
    await producer.submit(longKey, { id: commandId(longKey, 0), seq: 0 });
    await producer.submit(longKey, { id: commandId(longKey, 1), seq: 1 });

    const runs: string[] = [];
    const finished: string[] = [];
    const abortedSignals: string[] = [];
    const consumer = fixture.createConsumer({
      topic,
      groupId,
      consumerConfig: LIVENESS,
      handler: async (command: TestCommand, context: CommandContext) => {
        runs.push(command.id);
        if (command.id === commandId(longKey, 0)) await sleep(15_000);
        if (context.signal.aborted) abortedSignals.push(command.id);
        finished.push(command.id);
      },
    });
    const events = { joins: 0, rebalances: 0, crashes: 0, heartbeats: 0 };
    consumer.on(consumer.events.GROUP_JOIN, () => events.joins++);
    consumer.on(consumer.events.REBALANCING, () => events.rebalances++);
    consumer.on(consumer.events.CRASH, () => events.crashes++);
    consumer.on(consumer.events.HEARTBEAT, () => events.heartbeats++);
    await consumer.start();

    await waitUntil(() => runs.length === 1, 10_000, 'the long command to start');
    // Commands arriving mid-run, on the same partition, still flow: they finish while the long command
    // still runs (checked just after; the deadline only stops a hung wait).
    await sleep(7000);
    await fixture.submitRounds(producer, otherKeys, 2);
    const others = otherKeys.flatMap((key) => [commandId(key, 0), commandId(key, 1)]);
    await waitUntil(() => others.every((id) => finished.includes(id)), 15_000, 'the other keys while the long command runs');
    expect(finished).not.toContain(commandId(longKey, 0));
    expect(runs).not.toContain(commandId(longKey, 1));

    await waitUntil(() => finished.length === 8, 15_000, 'the long command and the one behind it');
    await waitUntil(() => consumer.metrics().committedOffsets[0] === '8', 10_000, 'the commit past the long command');
    await consumer.stop();

    expect(runs.filter((id) => id === commandId(longKey, 0))).toHaveLength(1);
    expect(finished.slice(-2)).toEqual([commandId(longKey, 0), commandId(longKey, 1)]);
    expect(events).toMatchObject({ joins: 1, rebalances: 0, crashes: 0 });
    expect(abortedSignals).toEqual([]);
    expect(events.heartbeats).toBeGreaterThanOrEqual(10);
    expect(await fixture.committedOffsets(groupId, topic)).toEqual({ 0: '8' });
  });

  it('heartbeats while a full buffer holds the fetch loop longer than the session timeout', async () => {
    const { topic, groupId, producer } = await fixture.newStream(1);
    const [key] = keysNamed('backlog', 1);
    await producer.submitAll(key, Array.from({ length: 5 }, (_, seq) => ({ id: commandId(key, seq), seq })));

    const runs: number[] = [];
    let maxBuffered = 0;
    const consumer = fixture.createConsumer({
      topic,
      groupId,
      maxBuffered: 2,
      consumerConfig: LIVENESS,
      handler: async (command: TestCommand) => {
        runs.push(command.seq);
        await sleep(command.seq === 0 ? 8000 : 10);
      },
    });
    const events = { joins: 0, rebalances: 0 };
    consumer.on(consumer.events.GROUP_JOIN, () => events.joins++);
    consumer.on(consumer.events.REBALANCING, () => events.rebalances++);
    await consumer.start();

    // Command 0 runs 8 s with 1 and 2 buffered behind it: eachBatch waits to accept 3 and 4, and
    // nothing completes or commits meanwhile, so only its own heartbeats keep the 6 s session alive.
    const sampler = setInterval(() => (maxBuffered = Math.max(maxBuffered, consumer.buffered)), 20);
    try {
      await waitUntil(() => runs.length === 5, 20_000, 'the backlog');
    } finally {
      clearInterval(sampler);
    }
    await waitUntil(() => consumer.metrics().committedOffsets[0] === '5', 10_000, 'the final commit');
    await consumer.stop();
    expect(runs).toEqual([0, 1, 2, 3, 4]);
    expect(maxBuffered).toBe(2);
    expect(events).toEqual({ joins: 1, rebalances: 0 });
  });
});
