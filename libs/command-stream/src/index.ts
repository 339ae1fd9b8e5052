export { CommandStreamProducer } from './command-stream-producer';
export { kafkaConversationEventBus } from './conversation-event-producer';
export { ensureTopics, DEFAULT_COMMAND_PARTITIONS } from './topic-setup';
export type { EnsureTopicsOptions } from './topic-setup';
export type { CommandStreamProducerOptions } from './command-stream-producer';
export { CommandStreamConsumer } from './command-stream-consumer';
export type {
  CommandContext,
  CommandHandler,
  CommandStreamConsumerOptions,
  CommandStreamMetrics,
  PoisonContext,
  PoisonHandler,
} from './consumer-options';
export type { RetryPolicy } from './retry-backoff';
