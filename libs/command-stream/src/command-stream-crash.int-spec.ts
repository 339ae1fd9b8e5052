import { CommandStreamFixture, keysNamed, sleep, waitUntil, type CompletedCommand, type TestCommand } from './command-stream.int-fixture';
import type { CommandContext } from './consumer-options';

jest.setTimeout(30_000);

const record = (command: TestCommand, { key, partition, offset }: CommandContext): CompletedCommand => ({ id: command.id, key, seq: command.seq, partition, offset });

describe('command stream against a real broker: crashes and rebalances', () => {
  const fixture = new CommandStreamFixture();
  const releaseHung: (() => void)[] = [];

  beforeAll(() => fixture.connect());
  afterAll(async () => {
    releaseHung.forEach((release) => release());
    await fixture.close();
  });

  it('re-delivers every unfinished command to the next consumer after a crash, and only commands at or after the committed offset', async () => {
    const { topic, groupId, producer } = await fixture.newStream(2);
    const hangingKeys = keysNamed('hang', 5);
    const steadyKeys = keysNamed('steady', 5);
    await fixture.submitRounds(producer, [...hangingKeys, ...steadyKeys], 10);
    const allIds = new Set([...hangingKeys, ...steadyKeys].flatMap((key) => Array.from({ length: 10 }, (_, seq) => `${key}#${seq}`)));

    // Consumer A: the 5th command of each hanging key never returns, so each of those keys stalls there.
    const startedByA = new Map<string, CompletedCommand>();
    const completedByA = new Map<string, CompletedCommand>();
    const consumerA = await fixture.startConsumer({
      topic,
      groupId,
      handler: async (command: TestCommand, context: CommandContext) => {
        startedByA.set(command.id, record(command, context));
        if (hangingKeys.includes(context.key) && command.seq === 4) await new Promise<void>((resolve) => releaseHung.push(resolve));
        else await sleep(2);
        completedByA.set(command.id, record(command, context));
      },
    });
    await waitUntil(() => completedByA.size === 5 * 4 + 5 * 10 && consumerA.inFlight === 5, 10_000, 'consumer A to stall on the hanging commands');

    // Held at the lowest unfinished offset of each partition (or its end when nothing there hangs).
    const end = await fixture.endOffsets(topic);
    const hung = [...startedByA.values()].filter((command) => !completedByA.has(command.id));
    const expectedCommit: Record<number, string> = { ...end };
    for (const { partition, offset } of hung) {
      if (BigInt(offset) < BigInt(expectedCommit[partition])) expectedCommit[partition] = offset;
    }
    await waitUntil(() => JSON.stringify(consumerA.metrics().committedOffsets) === JSON.stringify(expectedCommit), 3000, 'A to commit up to the hung commands');
    expect(consumerA.buffered).toBe(5 * 5);

    await consumerA.abort();
    const committedAtCrash = await fixture.committedOffsets(groupId, topic);
    expect(committedAtCrash).toEqual(expectedCommit);

    const completedByB = new Map<string, CompletedCommand>();
    const consumerB = await fixture.startConsumer({
      topic,
      groupId,
      handler: async (command: TestCommand, context: CommandContext) => {
        completedByB.set(command.id, record(command, context));
      },
    });
    await waitUntil(() => [...allIds].every((id) => completedByA.has(id) || completedByB.has(id)), 10_000, 'every command to complete somewhere');
    await sleep(300);

    const unfinishedByA = [...allIds].filter((id) => !completedByA.has(id));
    expect(unfinishedByA).toHaveLength(5 + 5 * 5);
    for (const id of unfinishedByA) expect(completedByB.has(id)).toBe(true);
    for (const { partition, offset } of completedByB.values()) {
      expect(BigInt(offset)).toBeGreaterThanOrEqual(BigInt(committedAtCrash[partition]));
    }
    // At-least-once repeats exactly what A finished after the lowest unfinished command; nothing before it.
    const duplicates = [...completedByB.keys()].filter((id) => completedByA.has(id)).sort();
    const finishedAfterCommit = [...completedByA.values()]
      .filter(({ partition, offset }) => BigInt(offset) >= BigInt(committedAtCrash[partition]))
      .map(({ id }) => id)
      .sort();
    expect(duplicates).toEqual(finishedAfterCommit);
    expect(duplicates.length).toBeGreaterThan(0);
    await consumerB.stop();
    expect(await fixture.committedOffsetsOfEveryPartition(groupId, topic)).toEqual(end);
  });

  it('keeps every command and each consumer\'s per-key order when a second consumer joins mid-stream', async () => {
    const { topic, groupId, producer } = await fixture.newStream(4);
    const keys = keysNamed('rebalance', 20);
    await fixture.submitRounds(producer, keys, 15);

    const completions = { a: [] as CompletedCommand[], b: [] as CompletedCommand[] };
    const handlerOf = (name: 'a' | 'b') => async (command: TestCommand, context: CommandContext) => {
      await sleep(100);
      completions[name].push(record(command, context));
    };
    // 300 commands x 100 ms over 4 keys at a time: about 7.5 s, long enough for B to join halfway even
    // when a loaded machine makes its join take a few seconds.
    const options = { topic, groupId, maxConcurrency: 4, consumerConfig: { heartbeatInterval: 300 } };
    const consumerA = await fixture.startConsumer({ ...options, handler: handlerOf('a') });
    let joinsOfA = 0;
    consumerA.on(consumerA.events.GROUP_JOIN, () => joinsOfA++);
    await waitUntil(() => completions.a.length >= 40, 10_000, 'A to get going');

    const consumerB = await fixture.startConsumer({ ...options, handler: handlerOf('b') });
    const allIds = new Set(keys.flatMap((key) => Array.from({ length: 15 }, (_, seq) => `${key}#${seq}`)));
    const done = (): Set<string> => new Set([...completions.a, ...completions.b].map(({ id }) => id));
    await waitUntil(() => done().size === allIds.size, 20_000, 'every command after the rebalance');

    expect(joinsOfA).toBeGreaterThanOrEqual(1);
    expect(consumerA.metrics().assignedPartitions.length + consumerB.metrics().assignedPartitions.length).toBe(4);
    expect(completions.b.length).toBeGreaterThan(0);
    for (const name of ['a', 'b'] as const) {
      const seqsByKey = new Map<string, number[]>();
      for (const { key, seq } of completions[name]) seqsByKey.set(key, [...(seqsByKey.get(key) ?? []), seq]);
      for (const seqs of seqsByKey.values()) expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    }
    await Promise.all([consumerA.stop(), consumerB.stop()]);
    expect(await fixture.committedOffsetsOfEveryPartition(groupId, topic)).toEqual(await fixture.endOffsets(topic));
  });
});
