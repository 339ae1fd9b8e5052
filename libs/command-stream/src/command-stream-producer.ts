import type { Producer } from 'kafkajs';
import { sendKeyedMany } from '@cmsg/platform/kafka';

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
  submitAll(conversationId: string, commands: TCommand[]): Promise<void> {
    return this.submitMany(commands.map((command) => ({ conversationId, command })));
  }

  /** Commands of many conversations in one request; each conversation's commands keep their order. */
  async submitMany(entries: readonly { conversationId: string; command: TCommand }[]): Promise<void> {
    if (entries.some(({ conversationId }) => conversationId.length === 0)) throw new Error('command stream: a command needs a conversation id');
    if (entries.some(({ command }) => command === undefined)) throw new Error('command stream: command is undefined');
    if (entries.length === 0) return;
    await sendKeyedMany(this.options.producer, this.options.topic, entries.map(({ conversationId, command }) => ({ key: conversationId, value: command })));
  }
}
