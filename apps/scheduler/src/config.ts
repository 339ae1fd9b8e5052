import { configVars, intVar, loadConfig } from '@cmsg/platform';
import { grpcSecurityConfigShape } from '@cmsg/platform/grpc';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { z } from 'zod';

const schedulerConfigShape = {
  GRPC_ADDRESS: configVars.grpcAddress('127.0.0.1:15052'),
  GRPC_HEALTH_ADDRESS: configVars.grpcHealthAddress,
  MONGODB_URI: configVars.mongodbUri,
  CMSG_MONGO_SHAPE_LOG: configVars.mongoShapeLog,
  KAFKA_BROKERS: configVars.kafkaBrokers,
  KAFKA_TOPIC_PREFIX: configVars.kafkaTopicPrefix,
  /** The webhook endpoint list versions its fan-out's cache reads (docs/webhooks.md). */
  REDIS_URL: configVars.redisUrl,
  CONVERSATIONS_GRPC_ADDRESS: configVars.grpcAddress('127.0.0.1:15051'),
  /** How often due schedules are looked for; a full batch is followed by another pass at once. */
  SCHEDULER_POLL_INTERVAL_MS: intVar(1_000, { min: 50 }),
  /** A claim whose replica died before producing its commands is taken over after this long. */
  SCHEDULER_FIRE_LEASE_MS: intVar(30_000, { min: 1_000 }),
  /** Due schedules one pass takes at most. */
  SCHEDULER_BATCH_SIZE: intVar(10_000),
  /** This process's name in the firing claims; unique per process by default. */
  SCHEDULER_REPLICA_ID: z.string().min(1).default(`${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`),
  /** Partitions of the command topic when this service creates it (the actions-runner's default too). */
  COMMAND_TOPIC_PARTITIONS: intVar(12),
  /** Consumer group on conversation-events (customer replies); default `<KAFKA_TOPIC_PREFIX>scheduler-customer-replies`. */
  CUSTOMER_REPLY_CONSUMER_GROUP_ID: z.string().min(1).optional(),
  SHUTDOWN_GRACE_MS: configVars.shutdownGraceMs,
  GRPC_MAX_CONNECTION_AGE_MS: configVars.grpcMaxConnectionAgeMs,
  METRICS_PORT: configVars.metricsPort(9466),
  // Caller authentication, TLS and reflection of the gRPC services (docs/grpc.md).
  ...grpcSecurityConfigShape,
};

/** Parsed once at boot by main.ts; fails fast listing every invalid variable. */
export function loadSchedulerConfig(env: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(schedulerConfigShape, env);
  // Prefixed like the topics: stacks sharing one cluster must not share a group.
  return { ...config, CUSTOMER_REPLY_CONSUMER_GROUP_ID: config.CUSTOMER_REPLY_CONSUMER_GROUP_ID ?? `${config.KAFKA_TOPIC_PREFIX}scheduler-customer-replies` };
}

export type SchedulerConfig = ReturnType<typeof loadSchedulerConfig>;
