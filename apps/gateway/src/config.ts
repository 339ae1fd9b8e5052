import { configVars, intVar, loadConfig } from '@cmsg/platform';
import { grpcSecurityConfigShape } from '@cmsg/platform/grpc';

/** Longest token cache that still honours a revocation within 5 s (CONTRACT 1). */
const MAX_TOKEN_CACHE_TTL_MS = 4000;

const gatewayConfigShape = {
  PORT: configVars.port(8080),
  CONVERSATIONS_GRPC_ADDRESS: configVars.grpcAddress('127.0.0.1:15051'),
  SCHEDULER_GRPC_ADDRESS: configVars.grpcAddress('127.0.0.1:15052'),
  ACTIONS_GRPC_ADDRESS: configVars.grpcAddress('127.0.0.1:15053'),
  REDIS_URL: configVars.redisUrl,
  KAFKA_BROKERS: configVars.kafkaBrokers,
  RATE_LIMIT_PER_MINUTE: configVars.rateLimitPerMinute,
  TOKEN_CACHE_TTL_MS: intVar(MAX_TOKEN_CACHE_TTL_MS, { min: 0, max: MAX_TOKEN_CACHE_TTL_MS }),
  SHUTDOWN_GRACE_MS: configVars.shutdownGraceMs,
  METRICS_PORT: configVars.metricsPort(9464),
  // Caller authentication, TLS and reflection of the gRPC services (docs/grpc.md).
  ...grpcSecurityConfigShape,
  // Inbound chat webhooks: verified here, produced to the chat-inbound topic.
  KAFKA_TOPIC_PREFIX: configVars.kafkaTopicPrefix,
  CHAT_APP_SECRET: configVars.chatAppSecret,
  CHAT_VERIFY_TOKEN: configVars.chatVerifyToken,
};

/** Parsed once at boot by main.ts; fails fast listing every invalid variable. */
export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(gatewayConfigShape, env);
}

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;
