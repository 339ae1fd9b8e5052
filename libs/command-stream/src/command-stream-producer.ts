import type { Admin, Producer } from 'kafkajs';
import { sendKeyed } from '@cmsg/platform';

/** Enough partitions for many consumer replicas; keys spread by kafkajs' murmur2 partitioner. */
export const DEFAULT_COMMAND_PARTITIONS = 12;

export interface CommandStreamProducerOptions {
  /** Created with createPartitioner: Partitioners.DefaultPartitioner (Java-compatible key hashing). */
  producer: Producer;
  topic: string;
}

/**
 * Writes commands to the per-conversation command stream: key = conversation id (so one
 * conversation's commands keep their order), JSON value, acks from all in-sync replicas, and the
 * current request id as a header.
 */
export class CommandStreamProducer<TCommand = unknown> {
  constructor(private readonly options: CommandStreamProducerOptions) {}

  submit(conversationId: string, command: TCommand): Promise<void> {
    return this.submitAll(conversationId, [command]);
  }

  /** One request; the commands keep their order within the conversation. */
  async submitAll(conversationId: string, commands: TCommand[]): Promise<void> {
    if (conversationId.length === 0) throw new Error('command stream: a command needs a conversation id');
    if (commands.some((command) => command === undefined)) throw new Error('command stream: command is undefined');
    if (commands.length === 0) return;
    await sendKeyed(this.options.producer, this.options.topic, conversationId, commands);
  }
}

/** Creates the topic when missing; returns whether it did. Never changes an existing topic's partitions. */
export async function ensureTopic(admin: Admin, topic: string, partitions = DEFAULT_COMMAND_PARTITIONS, replicationFactor?: number): Promise<boolean> {
  return admin.createTopics({
    topics: [{ topic, numPartitions: partitions, ...(replicationFactor ? { replicationFactor } : {}) }],
    waitForLeaders: true,
  });
}
