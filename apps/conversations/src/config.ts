import { configVars, loadConfig } from '@cmsg/platform';
import { z } from 'zod';

export const config = loadConfig({
  GRPC_ADDRESS: configVars.grpcAddress('127.0.0.1:50051'),
  MONGODB_URI: configVars.mongodbUri,
  KAFKA_BROKERS: configVars.kafkaBrokers,
  KAFKA_TOPIC_PREFIX: configVars.kafkaTopicPrefix,
  SIGNING_SECRET: configVars.signingSecret,
  OUTBOX_RELAY_INTERVAL_MS: z.coerce.number().int().min(100).default(5000),
  SHUTDOWN_GRACE_MS: configVars.shutdownGraceMs,
});

export type ConversationsConfig = typeof config;
