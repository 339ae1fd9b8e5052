import { booleanVar, configVars, intVar, loadConfig } from '@cmsg/platform';
import { grpcSecurityConfigShape } from '@cmsg/platform/grpc';
import { z } from 'zod';

const conversationsConfigShape = {
  GRPC_ADDRESS: configVars.grpcAddress('127.0.0.1:15051'),
  GRPC_HEALTH_ADDRESS: configVars.grpcHealthAddress,
  MONGODB_URI: configVars.mongodbUri,
  CMSG_MONGO_SHAPE_LOG: configVars.mongoShapeLog,
  KAFKA_BROKERS: configVars.kafkaBrokers,
  KAFKA_TOPIC_PREFIX: configVars.kafkaTopicPrefix,
  SIGNING_SECRET: configVars.signingSecret,
  // Partitions of broadcast-sends when this service creates it: the most actions-runner replicas that share one broadcast.
  BROADCAST_TOPIC_PARTITIONS: intVar(12),
  // The send engine's shared rate budget, back-off, pair rate and messaging limit (docs/broadcasts.md).
  REDIS_URL: configVars.redisUrl,
  // The least time between two broadcast sends to one contact on a channel (the provider's pair rate, 131056).
  SEND_PAIR_INTERVAL_MS: intVar(6_000, { min: 0, max: 60_000 }),
  OUTBOX_RELAY_INTERVAL_MS: intVar(5000, { min: 100 }),
  CHAT_API_BASE_URL: configVars.chatApiBaseUrl,
  // One Cloud API call; also bounds how long a repeated send waits for an attempt still in flight.
  CHAT_API_TIMEOUT_MS: intVar(15_000, { min: 100, max: 120_000 }),
  // Sending to contacts without a phone by their platform user id (BSUID), once the provider allows it.
  CHAT_BSUID_SEND_ENABLED: booleanVar('false'),
  SHUTDOWN_GRACE_MS: configVars.shutdownGraceMs,
  GRPC_MAX_CONNECTION_AGE_MS: configVars.grpcMaxConnectionAgeMs,
  METRICS_PORT: configVars.metricsPort(9465),
  // Caller authentication, TLS and reflection of the gRPC services (docs/grpc.md).
  ...grpcSecurityConfigShape,
  // Files and inbound media (docs/inbound-and-files.md).
  PUBLIC_BASE_URL: configVars.publicBaseUrl,
  AI_BASE_URL: configVars.aiBaseUrl,
  AI_API_KEY: configVars.aiApiKey,
  VISION_MODEL: z.string().min(1).default('gpt-4o-mini'),
  TRANSCRIPTION_MODEL: z.string().min(1).default('whisper-1'),
  SPEECH_TRANSCRIPTION_COST_TOKENS: intVar(500, { min: 0 }),
  FILE_SWEEP_INTERVAL_MS: intVar(60_000, { min: 1000 }),
  // Webhook endpoint URLs (docs/webhooks.md).
  WEBHOOK_ALLOW_PRIVATE_URLS: configVars.webhookAllowPrivateUrls,
};

/** Parsed once at boot by main.ts; fails fast listing every invalid variable. */
export function loadConversationsConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(conversationsConfigShape, env);
}

export type ConversationsConfig = ReturnType<typeof loadConversationsConfig>;
