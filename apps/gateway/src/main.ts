import './instrument';
import { createLogger, installGracefulShutdown, startMetricsServer } from '@cmsg/platform';
import { closeRedisClient, connectRedisClient, createRedisClient } from '@cmsg/platform/redis';
import { GrpcClients } from '@cmsg/platform/grpc';
import path from 'node:path';
import { createGatewayApp } from './app';
import { loadGatewayConfig } from './config';
import { closeHttpServer, listen } from './infrastructure/http-server';
import { kafkaAdminFactory } from './infrastructure/kafka-admin';
import { createRedisTokenRateLimiter } from './infrastructure/token-rate-limiter';
import { connectUpstreams } from './infrastructure/upstream-clients';
import { connectChatInboundPublisher } from './infrastructure/chat-inbound-producer';
import { RedisIdempotencyStore } from './idempotency/redis-idempotency-store';
import { KafkaReadinessCheck } from './readiness/kafka-readiness';
import { redisReadinessCheck } from './readiness/redis-readiness';

const logger = createLogger('gateway');

async function main(): Promise<void> {
  const config = loadGatewayConfig();
  const redis = createRedisClient(config.REDIS_URL, logger);
  connectRedisClient(redis, logger);
  const grpcClients = new GrpcClients(config, logger);
  const upstreamConnections = connectUpstreams(grpcClients, config);
  const kafkaReadiness = new KafkaReadinessCheck(kafkaAdminFactory(config.KAFKA_BROKERS));
  const chatInbound = await connectChatInboundPublisher(config, logger);

  const app = createGatewayApp({
    config,
    logger,
    upstreams: upstreamConnections.upstreams,
    rateLimiter: createRedisTokenRateLimiter(redis, config.RATE_LIMIT_PER_MINUTE),
    idempotencyStore: new RedisIdempotencyStore(redis),
    readinessChecks: [redisReadinessCheck(redis), kafkaReadiness, ...upstreamConnections.healthChecks],
    chatWebhooks: { appSecret: config.CHAT_APP_SECRET, verifyToken: config.CHAT_VERIFY_TOKEN, publisher: chatInbound.publisher },
    fileContent: upstreamConnections.fileContent,
    // The build copies both beside the bundle (tools/build/copy-gateway-assets.mjs).
    apiReference: { guidesDirectory: path.join(__dirname, 'guides'), assetsDirectory: path.join(__dirname, 'api-reference') },
  });
  const server = await listen(app, config.PORT);
  logger.info({ port: config.PORT }, 'gateway listening');
  const metricsServer = await startMetricsServer(config.METRICS_PORT, logger);

  // Order matters: stop taking requests and let in-flight ones finish before closing what they use.
  installGracefulShutdown(
    logger,
    [
      { name: 'http', close: () => closeHttpServer(server) },
      { name: 'grpc-clients', close: async () => grpcClients.close() },
      { name: 'chat-inbound-producer', close: () => chatInbound.close() },
      { name: 'redis', close: () => closeRedisClient(redis) },
      { name: 'kafka', close: () => kafkaReadiness.close() },
      ...(metricsServer ? [{ name: 'metrics', close: () => metricsServer.close() }] : []),
    ],
    config.SHUTDOWN_GRACE_MS,
  );
}

main().catch((error: unknown) => {
  logger.fatal({ err: error }, 'gateway failed to start');
  process.exit(1);
});
