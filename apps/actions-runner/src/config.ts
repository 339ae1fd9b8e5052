import { configVars, loadConfig } from '@cmsg/platform';

export const config = loadConfig({
  GRPC_ADDRESS: configVars.grpcAddress('127.0.0.1:50053'),
  MONGODB_URI: configVars.mongodbUri,
  KAFKA_BROKERS: configVars.kafkaBrokers,
  KAFKA_TOPIC_PREFIX: configVars.kafkaTopicPrefix,
  SHUTDOWN_GRACE_MS: configVars.shutdownGraceMs,
});
