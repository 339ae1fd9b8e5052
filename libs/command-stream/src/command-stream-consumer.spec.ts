import { createLogger } from '@cmsg/platform';
import type { Kafka } from 'kafkajs';
import { CommandStreamConsumer } from './command-stream-consumer';

const EVENTS = { GROUP_JOIN: 'consumer.group_join', REBALANCING: 'consumer.rebalancing', CRASH: 'consumer.crash' } as const;

/** The kafkajs consumer as CommandStreamConsumer drives it: records its calls, emits a crash on demand. */
class FakeKafkaConsumer {
  readonly events = EVENTS;
  readonly calls: string[] = [];
  private readonly listeners = new Map<string, ((event: { payload: unknown }) => void)[]>();

  on(event: string, listener: (event: { payload: unknown }) => void): () => void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return () => undefined;
  }

  crash(restart: boolean): void {
    for (const listener of this.listeners.get(EVENTS.CRASH) ?? []) listener({ payload: { error: new Error('Failed to find group coordinator'), groupId: 'g', restart } });
  }

  async connect(): Promise<void> {
    this.calls.push('connect');
  }
  async subscribe(): Promise<void> {
    this.calls.push('subscribe');
  }
  async run(): Promise<void> {
    this.calls.push('run');
  }
  pause(): void {
    this.calls.push('pause');
  }
  async commitOffsets(): Promise<void> {}
  async disconnect(): Promise<void> {
    this.calls.push('disconnect');
  }
}

/** The restart itself is restartAfterCrashes' (libs/platform, with its own spec): here, that the command stream uses it and stops it. */
describe('CommandStreamConsumer after a kafkajs crash it does not restart from', () => {
  let kafkaConsumer: FakeKafkaConsumer;
  let consumer: CommandStreamConsumer;

  beforeEach(async () => {
    jest.useFakeTimers();
    kafkaConsumer = new FakeKafkaConsumer();
    const kafka = { consumer: () => kafkaConsumer } as unknown as Kafka;
    consumer = new CommandStreamConsumer({ kafka, topic: 'commands', groupId: 'g', logger: createLogger('test', 'silent'), handler: async () => undefined, crashRestart: { baseMs: 100, maxMs: 400 } });
    await consumer.start();
    kafkaConsumer.calls.length = 0;
  });
  afterEach(() => jest.useRealTimers());

  it('runs the same consumer again, subscribed as it was', async () => {
    kafkaConsumer.crash(false);
    await jest.advanceTimersByTimeAsync(100);
    expect(kafkaConsumer.calls).toEqual(['connect', 'run']);
  });

  it('runs nothing once stopping', async () => {
    kafkaConsumer.crash(false);
    await consumer.stop();
    kafkaConsumer.crash(false);
    await jest.advanceTimersByTimeAsync(30_000);
    expect(kafkaConsumer.calls).not.toContain('run');
  });
});
