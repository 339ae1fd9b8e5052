import { CommandStreamConsumer, ensureTopics } from '@cmsg/command-stream';
import { ConversationEventEnvelopeSchema, type ConversationEventEnvelope } from '@cmsg/conversation-commands';
import type { ScheduledMessageRepository } from '@cmsg/dal';
import type { OutboxRecorder } from '@cmsg/events';
import type { Logger } from '@cmsg/platform';
import { type Clock, onConversationEvent } from '@cmsg/scheduling-domain';
import type { Kafka } from 'kafkajs';

export interface CustomerReplyConsumerOptions {
  kafka: Kafka;
  topic: string;
  groupId: string;
  partitions: number;
  repository: ScheduledMessageRepository;
  events: OutboxRecorder;
  clock: Clock;
  logger: Logger;
}

/**
 * Consumes `conversation-events` in the scheduler's own group: a recorded customer message cancels
 * the conversation's cancel_on_customer_reply schedule. Offsets are committed only after an event
 * was handled (a crash re-delivers it; handling is idempotent), one conversation's events in order.
 */
export async function startCustomerReplyConsumer(options: CustomerReplyConsumerOptions): Promise<{ stop(): Promise<void> }> {
  const { kafka, topic, repository, events, clock, logger } = options;
  // The conversations service may not have published yet: subscribing needs the topic.
  await ensureTopics(kafka, [topic], { partitions: options.partitions });
  const consumer = new CommandStreamConsumer<ConversationEventEnvelope>({
    kafka,
    topic,
    groupId: options.groupId,
    logger,
    decode: (value) => ConversationEventEnvelopeSchema.parse(value),
    retry: { attempts: 20 },
    handler: async (event, context) => {
      const cancelled = await onConversationEvent(event, repository, events, clock);
      if (cancelled.length > 0) logger.info({ event_id: event.id, conversation_uuid: context.key, cancelled }, 'customer reply: scheduled messages cancelled');
    },
    onPoison: async (event, error, context) => {
      logger.error({ err: error, event_id: event?.id, key: context.key, offset: context.offset, raw: context.rawValue?.slice(0, 2000) }, 'conversation event dropped by the scheduler');
    },
  });
  await consumer.start();
  logger.info({ topic, group_id: options.groupId }, 'customer reply consumer started');
  return { stop: () => consumer.stop() };
}
