// Shared by the *.int-spec.ts files of this lib: a real broker, a fresh topic and group per test.
import { randomUUID } from 'node:crypto';
import { Partitioners, type Admin, type Kafka, type Producer } from 'kafkajs';
import { TOPIC, createLogger, topicName, type Logger } from '@cmsg/platform';
import { createKafka } from '@cmsg/platform/kafka';
import { CommandStreamConsumer } from './command-stream-consumer';
import { CommandStreamProducer } from './command-stream-producer';
import { ensureTopics } from './topic-setup';
import type { CommandStreamConsumerOptions } from './consumer-options';

export interface TestCommand {
  id: string;
  seq: number;
}

export interface CompletedCommand {
  id: string;
  key: string;
  seq: number;
  partition: number;
  offset: string;
}

export class CommandStreamFixture {
  readonly logger: Logger = createLogger('command-stream-int-spec', process.env['LOG_LEVEL'] ?? 'silent');
  readonly kafka: Kafka;
  private readonly admin: Admin;
  private readonly producer: Producer;
  private readonly topics: string[] = [];
  private readonly consumers: CommandStreamConsumer<TestCommand>[] = [];

  constructor() {
    const brokers = (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:19092').split(',');
    this.kafka = createKafka(`command-stream-int-${process.pid}`, brokers, this.logger);
    this.admin = this.kafka.admin();
    this.producer = this.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  }

  async connect(): Promise<void> {
    await Promise.all([this.admin.connect(), this.producer.connect()]);
  }

  async close(): Promise<void> {
    await Promise.all(this.consumers.map((consumer) => consumer.abort().catch(() => undefined)));
    if (this.topics.length > 0) await this.admin.deleteTopics({ topics: this.topics }).catch(() => undefined);
    await Promise.all([this.admin.disconnect(), this.producer.disconnect()]);
  }

  /** A new topic and group id for one test, so tests never see each other's commands or offsets. */
  async newStream(partitions: number): Promise<{ topic: string; groupId: string; producer: CommandStreamProducer<TestCommand> }> {
    const suffix = randomUUID().slice(0, 8);
    const topic = topicName(`test-${suffix}-`, TOPIC.conversationCommands);
    this.topics.push(topic);
    expect(await ensureTopics(this.kafka, [topic], { partitions })).toEqual([topic]);
    expect(await ensureTopics(this.kafka, [topic], { partitions })).toEqual([]);
    return { topic, groupId: `test-command-stream-${suffix}`, producer: new CommandStreamProducer({ producer: this.producer, topic }) };
  }

  /** Sends rounds of one command per key, so each partition holds the keys interleaved. */
  async submitRounds(producer: CommandStreamProducer<TestCommand>, keys: string[], rounds: number): Promise<void> {
    for (let seq = 0; seq < rounds; seq++) {
      await Promise.all(keys.map((key) => producer.submit(key, { id: commandId(key, seq), seq })));
    }
  }

  async sendRaw(topic: string, key: string, value: string): Promise<void> {
    await this.producer.send({ topic, acks: -1, messages: [{ key, value }] });
  }

  async committedOffsets(groupId: string, topic: string): Promise<Record<number, string>> {
    const [result] = await this.admin.fetchOffsets({ groupId, topics: [topic] });
    return Object.fromEntries(result.partitions.map(({ partition, offset }) => [partition, offset]));
  }

  /**
   * The group's committed offsets, a partition that holds no message read as committed at 0: no key
   * of a test may hash to it (random keys over few partitions), and a consumer commits nothing there.
   */
  async committedOffsetsOfEveryPartition(groupId: string, topic: string): Promise<Record<number, string>> {
    const [committed, end] = await Promise.all([this.committedOffsets(groupId, topic), this.endOffsets(topic)]);
    return Object.fromEntries(Object.entries(committed).map(([partition, offset]) => [partition, offset === '-1' && end[Number(partition)] === '0' ? '0' : offset]));
  }

  async endOffsets(topic: string): Promise<Record<number, string>> {
    const offsets = await this.admin.fetchTopicOffsets(topic);
    return Object.fromEntries(offsets.map(({ partition, high }) => [partition, high]));
  }

  createConsumer(options: Omit<CommandStreamConsumerOptions<TestCommand>, 'kafka' | 'logger'>): CommandStreamConsumer<TestCommand> {
    const consumer = new CommandStreamConsumer<TestCommand>({ kafka: this.kafka, logger: this.logger, commitIntervalMs: 100, ...options });
    this.consumers.push(consumer);
    return consumer;
  }

  async startConsumer(options: Omit<CommandStreamConsumerOptions<TestCommand>, 'kafka' | 'logger'>): Promise<CommandStreamConsumer<TestCommand>> {
    const consumer = this.createConsumer(options);
    await consumer.start();
    return consumer;
  }
}

export function commandId(key: string, seq: number): string {
  return `${key}#${seq}`;
}

export function keysNamed(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => `${prefix}-${index}-${randomUUID()}`);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}
