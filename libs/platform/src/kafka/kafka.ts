import { CatalogError } from '@cmsg/errors';
import { Kafka, KafkaJSError, logLevel, type Message, type Producer } from 'kafkajs';
import { fixKafkaRequestQueueIdleLoop } from './kafka-request-queue';
import type { Logger } from '../logger';
import { REQUEST_ID_HEADER, currentRequestId } from '../request-context';

export function createKafka(clientId: string, brokers: string[], logger: Logger): Kafka {
  fixKafkaRequestQueueIdleLoop();
  return new Kafka({
    clientId,
    brokers,
    logLevel: logLevel.WARN,
    retry: { initialRetryTime: 200, retries: 8 },
    logCreator: () => (entry) => {
      const { message, ...rest } = entry.log;
      const level = entry.level === logLevel.ERROR ? 'error' : entry.level === logLevel.WARN ? 'warn' : 'debug';
      logger[level]({ kafka: { namespace: entry.namespace, ...rest } }, message);
    },
  });
}

/** Message headers every producer adds: the request id (trace context is added by the kafkajs instrumentation, or by kafkaConversationEventBus). */
export function withRequestIdHeader(message: Message): Message {
  const requestId = currentRequestId();
  return requestId ? { ...message, headers: { ...message.headers, [REQUEST_ID_HEADER]: requestId } } : message;
}

export async function sendKeyed(producer: Producer, topic: string, key: string, values: unknown[]): Promise<void> {
  await sendKeyedMany(producer, topic, values.map((value) => ({ key, value })));
}

/**
 * One produce call for messages of many keys (kafkajs sends one request per broker); each key keeps
 * its order. Kafka out of reach once kafkajs's retries are spent (a broker restarting, a leader
 * election) is SERVICE_UNAVAILABLE, a 503 the caller may retry, never a 500.
 */
export async function sendKeyedMany(producer: Producer, topic: string, entries: readonly { key: string; value: unknown }[]): Promise<void> {
  await sendKeyedMessages(
    producer,
    topic,
    entries.map(({ key, value }) => withRequestIdHeader({ key, value: JSON.stringify(value) })),
  );
}

/** sendKeyedMany of messages made already (their values serialised, their headers set). */
export async function sendKeyedMessages(producer: Producer, topic: string, messages: Message[]): Promise<void> {
  try {
    await producer.send({ topic, acks: -1, messages });
  } catch (error) {
    if (error instanceof KafkaJSError) throw new CatalogError('SERVICE_UNAVAILABLE', 'The message stream (Kafka) is unavailable; retry with backoff.', { cause: error });
    throw error;
  }
}
