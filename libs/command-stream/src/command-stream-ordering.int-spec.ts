import { CommandStreamFixture, commandId, keysNamed, sleep, waitUntil, type TestCommand } from './command-stream.int-fixture';
import type { CommandContext, PoisonContext } from './consumer-options';

jest.setTimeout(30_000);

describe('command stream against a real broker: ordering, concurrency, failures', () => {
  const fixture = new CommandStreamFixture();

  beforeAll(() => fixture.connect());
  afterAll(() => fixture.close());

  it('runs each key strictly in order, one at a time, while keys run concurrently', async () => {
    const { topic, groupId, producer } = await fixture.newStream(3);
    const keys = keysNamed('order', 20);
    await fixture.submitRounds(producer, keys, 20);

    const completed = new Map<string, number[]>(keys.map((key) => [key, []]));
    const running = new Set<string>();
    const overlaps: string[] = [];
    let maxRunning = 0;
    const consumer = await fixture.startConsumer({
      topic,
      groupId,
      maxConcurrency: 16,
      handler: async (command: TestCommand, { key }: CommandContext) => {
        if (running.has(key)) overlaps.push(command.id);
        running.add(key);
        maxRunning = Math.max(maxRunning, running.size);
        await sleep(Math.random() * 20);
        completed.get(key)!.push(command.seq);
        running.delete(key);
      },
    });

    await waitUntil(() => [...completed.values()].every((seqs) => seqs.length === 20), 20_000, '400 commands');
    const expected = Array.from({ length: 20 }, (_, seq) => seq);
    for (const seqs of completed.values()) expect(seqs).toEqual(expected);
    expect(overlaps).toEqual([]);
    expect(maxRunning).toBeGreaterThan(3);
    expect(maxRunning).toBeLessThanOrEqual(16);

    const end = await fixture.endOffsets(topic);
    await waitUntil(() => JSON.stringify(consumer.metrics().committedOffsets) === JSON.stringify(end), 15_000, 'commits to reach the end');
    await consumer.stop();
    expect(await fixture.committedOffsetsOfEveryPartition(groupId, topic)).toEqual(end);
  });

  it('does not let a slow key delay other keys on the same partition, and holds the commit at it', async () => {
    // The slow command runs 6 s: long beside the fast ones (about 0.3 s) and a loaded machine's pauses,
    // so they finish, and the commit is seen held, well inside it.
    const SLOW_MS = 6000;
    const { topic, groupId, producer } = await fixture.newStream(1);
    const [slowKey] = keysNamed('slow', 1);
    const fastKeys = keysNamed('fast', 10);
    await producer.submit(slowKey, { id: commandId(slowKey, 0), seq: 0 });
    await fixture.submitRounds(producer, fastKeys, 5);

    const finishedAt = new Map<string, number>();
    const started = Date.now();
    const consumer = await fixture.startConsumer({
      topic,
      groupId,
      handler: async (command: TestCommand, { key }: CommandContext) => {
        await sleep(key === slowKey ? SLOW_MS : 5);
        finishedAt.set(command.id, Date.now() - started);
      },
    });

    // The rule is that the fast commands finish while the slow one still runs (checked just after), not
    // how soon: the deadlines only stop a hung wait.
    await waitUntil(() => finishedAt.size === 50, 20_000, 'the 50 fast commands');
    expect(finishedAt.has(commandId(slowKey, 0))).toBe(false);
    const slowestFast = Math.max(...finishedAt.values());
    await waitUntil(() => consumer.metrics().committedOffsets[0] === '0', 20_000, 'the commit to stay at the slow command');
    expect(consumer.inFlight).toBe(1);
    expect(finishedAt.has(commandId(slowKey, 0))).toBe(false);

    await waitUntil(() => finishedAt.has(commandId(slowKey, 0)), SLOW_MS + 10_000, 'the slow command');
    expect(finishedAt.get(commandId(slowKey, 0))! - slowestFast).toBeGreaterThan(1500);
    await waitUntil(() => consumer.metrics().committedOffsets[0] === '51', 10_000, 'the commit to pass the slow command');
    await consumer.stop();
  });

  it('retries a failing command with back-off, then dead-letters it, and the key moves on', async () => {
    const { topic, groupId, producer } = await fixture.newStream(2);
    const [flakyKey, brokenKey] = keysNamed('failing', 2);
    await producer.submitAll(flakyKey, [{ id: 'flaky', seq: 0 }, { id: 'after-flaky', seq: 1 }]);
    await producer.submitAll(brokenKey, [{ id: 'broken', seq: 0 }]);
    await fixture.sendRaw(topic, brokenKey, 'not json');
    await producer.submit(brokenKey, { id: 'after-broken', seq: 2 });

    const attempts = new Map<string, number[]>();
    const order: string[] = [];
    const poisoned: { id: string | undefined; attempts: number; rawValue: string | null; error: string }[] = [];
    const consumer = await fixture.startConsumer({
      topic,
      groupId,
      retry: { attempts: 3, initialBackoffMs: 50 },
      handler: async (command: TestCommand, { attempt }: CommandContext) => {
        attempts.set(command.id, [...(attempts.get(command.id) ?? []), attempt]);
        if (command.id === 'broken' || (command.id === 'flaky' && attempt < 3)) throw new Error(`${command.id} failed`);
        order.push(command.id);
      },
      onPoison: async (command: TestCommand | undefined, error: unknown, context: PoisonContext) => {
        poisoned.push({ id: command?.id, attempts: context.attempts, rawValue: context.rawValue, error: String(error) });
        order.push(`poison:${command?.id ?? context.rawValue}`);
      },
    });

    await waitUntil(() => order.length === 5, 10_000, 'every command to be handled or dead-lettered');
    expect(attempts.get('flaky')).toEqual([1, 2, 3]);
    expect(attempts.get('broken')).toEqual([1, 2, 3]);
    expect(order.filter((entry) => ['flaky', 'after-flaky'].includes(entry))).toEqual(['flaky', 'after-flaky']);
    expect(order.filter((entry) => !['flaky', 'after-flaky'].includes(entry))).toEqual(['poison:broken', 'poison:not json', 'after-broken']);
    expect(poisoned).toEqual([
      { id: 'broken', attempts: 3, rawValue: JSON.stringify({ id: 'broken', seq: 0 }), error: 'Error: broken failed' },
      { id: undefined, attempts: 0, rawValue: 'not json', error: expect.stringContaining('JSON') },
    ]);
    expect(consumer.metrics()).toMatchObject({ completed: 3, poisoned: 2, failedAttempts: 5 });
    await consumer.stop();
  });
});
