import { ensureTopics } from '@cmsg/command-stream';
import { TOPIC, type Logger, topicName } from '@cmsg/platform';
import { createKafka } from '@cmsg/platform/kafka';
import { Partitioners } from 'kafkajs';
import type { GatewayConfig } from '../config';
import { type ChatInboundPublisher, KafkaChatInboundPublisher } from '../webhooks/chat-inbound-publisher';

/** The producer of the chat-inbound topic (created here when missing; the consumer may race to create it too). */
export async function connectChatInboundPublisher(
  config: Pick<GatewayConfig, 'KAFKA_BROKERS' | 'KAFKA_TOPIC_PREFIX'>,
  logger: Logger,
): Promise<{ publisher: ChatInboundPublisher; close(): Promise<void> }> {
  const kafka = createKafka('gateway', config.KAFKA_BROKERS, logger);
  const topic = topicName(config.KAFKA_TOPIC_PREFIX, TOPIC.chatInbound);
  await ensureTopics(kafka, [topic]);
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false });
  await producer.connect();
  return { publisher: new KafkaChatInboundPublisher(producer, topic), close: () => producer.disconnect() };
}
