import { configVars, intVar, loadConfig } from '@cmsg/platform';
import { grpcSecurityConfigShape } from '@cmsg/platform/grpc';
import { z } from 'zod';

const actionsRunnerConfigShape = {
  GRPC_ADDRESS: configVars.grpcAddress('127.0.0.1:15053'),
  GRPC_HEALTH_ADDRESS: configVars.grpcHealthAddress,
  MONGODB_URI: configVars.mongodbUri,
  CMSG_MONGO_SHAPE_LOG: configVars.mongoShapeLog,
  KAFKA_BROKERS: configVars.kafkaBrokers,
  KAFKA_TOPIC_PREFIX: configVars.kafkaTopicPrefix,
  /** The webhook endpoint list versions: its fan-out's cache, and its dispatcher's disables (docs/webhooks.md). */
  REDIS_URL: configVars.redisUrl,
  CONVERSATIONS_GRPC_ADDRESS: configVars.grpcAddress('127.0.0.1:15051'),
  AI_BASE_URL: configVars.aiBaseUrl,
  AI_API_KEY: configVars.aiApiKey,
  /**
   * Every replica joins this consumer group; the partitions of the command topic are shared among
   * them. Default: KAFKA_TOPIC_PREFIX + `actions-runner`, so stacks sharing a cluster never share a group.
   */
  COMMAND_CONSUMER_GROUP_ID: z.string().min(1).optional(),
  /** Commands (= conversations) running at once in one replica. */
  COMMAND_CONCURRENCY: intVar(64),
  /** How soon the group notices a replica that died (kafkajs default 30 s). */
  COMMAND_SESSION_TIMEOUT_MS: intVar(30_000, { min: 6_000 }),
  /** Partitions of the command topic when this service creates it. */
  COMMAND_TOPIC_PARTITIONS: intVar(12),
  /** Consumer group of broadcast-sends (default KAFKA_TOPIC_PREFIX + `broadcast-senders`): every replica shares every broadcast. */
  BROADCAST_CONSUMER_GROUP_ID: z.string().min(1).optional(),
  /** Broadcast slices (partitions of broadcast-sends) one replica sends at once. */
  BROADCAST_SLICE_CONCURRENCY: intVar(12),
  /** Recipients of one slice in flight at once. */
  BROADCAST_SEND_CONCURRENCY: intVar(4),
  /** Partitions of broadcast-sends when this service creates it. */
  BROADCAST_TOPIC_PARTITIONS: intVar(12),
  /** Webhook attempts in flight in one replica, all endpoints together (each mostly waits on the network). */
  WEBHOOK_CONCURRENCY: intVar(64),
  /** Webhook attempts in flight to one endpoint in one replica; its other due deliveries wait, nobody else's do. */
  WEBHOOK_ENDPOINT_CONCURRENCY: intVar(8),
  /** First retry delay of a failed webhook attempt; doubles up to 1 h (with jitter), for 24 h. */
  WEBHOOK_RETRY_BASE_MS: intVar(5_000, { min: 100 }),
  /** Poll interval while no delivery is due (one query per interval per replica); bounds the delay of a delivery queued by another process. */
  WEBHOOK_IDLE_MS: intVar(250, { min: 20 }),
  /** An endpoint that failed every attempt for this long is disabled (CONTRACT 9.2: 3 days). */
  WEBHOOK_DISABLE_AFTER_MS: intVar(3 * 24 * 3_600_000, { min: 1_000 }),
  /** Deliveries to http and loopback/private hosts (tests, local demos); checked again at every connection. */
  WEBHOOK_ALLOW_PRIVATE_URLS: configVars.webhookAllowPrivateUrls,
  SHUTDOWN_GRACE_MS: configVars.shutdownGraceMs,
  GRPC_MAX_CONNECTION_AGE_MS: configVars.grpcMaxConnectionAgeMs,
  METRICS_PORT: configVars.metricsPort(9467),
  // Caller authentication, TLS and reflection of the gRPC services (docs/grpc.md).
  ...grpcSecurityConfigShape,
};

/** Parsed once at boot by main.ts; fails fast listing every invalid variable. */
export function loadActionsRunnerConfig(env: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(actionsRunnerConfigShape, env);
  return {
    ...config,
    COMMAND_CONSUMER_GROUP_ID: config.COMMAND_CONSUMER_GROUP_ID ?? `${config.KAFKA_TOPIC_PREFIX}actions-runner`,
    BROADCAST_CONSUMER_GROUP_ID: config.BROADCAST_CONSUMER_GROUP_ID ?? `${config.KAFKA_TOPIC_PREFIX}broadcast-senders`,
  };
}

export type ActionsRunnerConfig = ReturnType<typeof loadActionsRunnerConfig>;
