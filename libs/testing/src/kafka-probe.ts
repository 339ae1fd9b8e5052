import { randomUUID } from 'node:crypto';
import { fixKafkaRequestQueueIdleLoop } from '@cmsg/platform/kafka';
import { type Consumer, Kafka, logLevel } from 'kafkajs';
import { integrationStack } from './integration-stack';

export interface ProbedMessage {
  key: string | null;
  value: any;
  headers: Record<string, string>;
}

/** Reads a topic of the running stack from the beginning, collecting what it sees (tests only). */
export class KafkaTopicProbe {
  readonly messages: ProbedMessage[] = [];
  private consumer: Consumer | undefined;

  constructor(private readonly topic: string) {}

  static forStackTopic(baseTopic: string): KafkaTopicProbe {
    return new KafkaTopicProbe(`${integrationStack().env['KAFKA_TOPIC_PREFIX']}${baseTopic}`);
  }

  async start(): Promise<void> {
    fixKafkaRequestQueueIdleLoop();
    const kafka = new Kafka({ clientId: 'test-probe', brokers: integrationStack().env['KAFKA_BROKERS']!.split(','), logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: this.topic, numPartitions: 6 }] }).catch(() => undefined);
    await admin.disconnect();
    this.consumer = kafka.consumer({ groupId: `probe-${randomUUID()}`, sessionTimeout: 10000 });
    await this.consumer.connect();
    await this.consumer.subscribe({ topic: this.topic, fromBeginning: true });
    await this.consumer.run({
      eachMessage: async ({ message }) => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(message.headers ?? {})) headers[name] = String(value);
        this.messages.push({ key: message.key?.toString() ?? null, value: JSON.parse(message.value?.toString() ?? 'null'), headers });
      },
    });
  }

  /** Waits until `predicate` matches a message, or fails after the timeout. */
  async waitFor(predicate: (message: ProbedMessage) => boolean, timeoutMs = 15000): Promise<ProbedMessage> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const found = this.messages.find(predicate);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no message on ${this.topic} matched within ${timeoutMs} ms (saw ${this.messages.length})`);
  }

  matching(predicate: (message: ProbedMessage) => boolean): ProbedMessage[] {
    return this.messages.filter(predicate);
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect();
  }
}
