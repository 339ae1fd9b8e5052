import { fixKafkaRequestQueueIdleLoop } from '@cmsg/platform/kafka';
import { Kafka, logLevel } from 'kafkajs';

/**
 * Admin clients for the readiness probe: one attempt with a short timeout, so /readyz answers
 * within its budget; the failure is reported by /readyz itself, not by kafkajs' logger.
 */
export function kafkaAdminFactory(brokers: string[]) {
  fixKafkaRequestQueueIdleLoop();
  const kafka = new Kafka({
    clientId: 'gateway-readiness',
    brokers,
    connectionTimeout: 1000,
    requestTimeout: 2000,
    retry: { retries: 0 },
    logLevel: logLevel.NOTHING,
  });
  return () => kafka.admin({ retry: { retries: 0 } });
}
