// @cmsg/platform/kafka: the Kafka clients (kafkajs), apart from @cmsg/platform so that what does not produce or consume does not load them.
export { createKafka, withRequestIdHeader, sendKeyed, sendKeyedMany, sendKeyedMessages } from './kafka';
export { fixKafkaRequestQueueIdleLoop } from './kafka-request-queue';
export { restartAfterCrashes } from './kafka-crash-restart';
export type { CrashRestart, CrashRestartOptions } from './kafka-crash-restart';
