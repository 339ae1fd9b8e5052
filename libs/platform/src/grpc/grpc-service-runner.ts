import * as grpc from '@grpc/grpc-js';
import type { Logger } from '../logger';
import { startMetricsServer } from '../metrics/metrics-server';
import { type Closer, installGracefulShutdown } from '../shutdown';
import { callerAuthenticationInterceptor } from './grpc-caller-authentication';
import { GrpcClients } from './grpc-clients';
import { ServiceHealth } from './grpc-health';
import { listenForHealthChecks } from './grpc-health-listener';
import { addReflection } from './grpc-reflection';
import { type GrpcSecurityConfig, reflectionEnabled } from './grpc-security-config';
import { grpcServerSecurity } from './grpc-server-security';
import { grpcServerOptions } from './grpc-server-options';
import { bindGrpcServer, serviceNameOf, shutdownGrpcServer } from './grpc-server-lifecycle';

/** What every gRPC service's config holds besides its own variables. */
export interface GrpcServiceConfig extends GrpcSecurityConfig {
  GRPC_ADDRESS: string;
  /** Plaintext port serving grpc.health.v1 only (for the kubelet's probes); none when unset. */
  GRPC_HEALTH_ADDRESS?: string | undefined;
  SHUTDOWN_GRACE_MS: number;
  /** Each client connection closed after about this long (0: never); see grpcServerOptions. */
  GRPC_MAX_CONNECTION_AGE_MS: number;
  /** Prometheus /metrics (0: none). */
  METRICS_PORT: number;
}

export interface GrpcServiceRegistrar {
  add<Implementation extends grpc.UntypedServiceImplementation>(definition: grpc.ServiceDefinition<Implementation>, implementation: Implementation): void;
}

export interface StartedService {
  /** Dependency check behind grpc.health.v1 (every 2 s). */
  isHealthy(): Promise<boolean>;
  /** Dependencies that answer for themselves under their own grpc.health.v1 service name (the gateway's /readyz names them). */
  dependencyChecks?: Record<string, () => Promise<boolean>>;
  /** Work that starts once the port answers (consumers, pollers); returns what stops it. */
  afterListening?(): Promise<Closer[]>;
  /** Closed in order after the gRPC server drained and what afterListening started stopped. */
  closers: Closer[];
  /** Extra fields of the "listening" log line. */
  details?: Record<string, unknown>;
}

export interface GrpcServiceSpec<Config extends GrpcServiceConfig> {
  name: string;
  logger: Logger;
  loadConfig(): Config;
  /** Connects what the service needs and registers its gRPC services. */
  start(context: { config: Config; services: GrpcServiceRegistrar; clients: GrpcClients }): Promise<StartedService>;
}

/**
 * The one start-up of every gRPC service (main.ts imports its instrument.ts first, so telemetry
 * patches grpc-js, kafkajs and mongodb before they load): config parsed once, caller
 * authentication and TLS, the service's handlers, grpc.health.v1 (also on the plaintext health port
 * when GRPC_HEALTH_ADDRESS is set; SERVING only once afterListening has started the background
 * work, so /readyz is not ready before the Kafka consumers hold their partitions), reflection when enabled, one log line saying how it is protected,
 * and on SIGTERM the drain: health NOT_SERVING, in-flight calls finished, background work stopped,
 * connections closed, and last the health port, which answers NOT_SERVING until then.
 */
export function runGrpcService<Config extends GrpcServiceConfig>(spec: GrpcServiceSpec<Config>): void {
  startGrpcService(spec).catch((error: unknown) => {
    spec.logger.fatal({ err: error }, `${spec.name} failed to start`);
    process.exit(1);
  });
}

async function startGrpcService<Config extends GrpcServiceConfig>(spec: GrpcServiceSpec<Config>): Promise<void> {
  const { logger } = spec;
  const config = spec.loadConfig();
  const security = grpcServerSecurity(config);
  const clients = new GrpcClients(config, logger);
  const server = new grpc.Server({ ...grpcServerOptions(config), interceptors: [callerAuthenticationInterceptor(security, logger)] });
  const serviceNames: string[] = [];
  const started = await spec.start({
    config,
    clients,
    services: {
      add: (definition, implementation) => {
        server.addService(definition, implementation);
        serviceNames.push(serviceNameOf(definition));
      },
    },
  });
  const health = new ServiceHealth(serviceNames, started.isHealthy, logger, started.dependencyChecks);
  health.addTo(server);
  const reflection = reflectionEnabled(config);
  if (reflection) addReflection(server, [...serviceNames, 'grpc.health.v1.Health']);

  const port = await bindGrpcServer(server, config.GRPC_ADDRESS, security.credentials);
  const healthListener = config.GRPC_HEALTH_ADDRESS ? await listenForHealthChecks(health, config.GRPC_HEALTH_ADDRESS) : undefined;
  await health.start();
  const protection = {
    tls: security.tls,
    client_certificates: security.clientCertificates,
    token_callers: [...new Set(security.tokenCallers.values())],
    unauthenticated_calls_allowed: security.allowUnauthenticated,
    reflection,
  };
  for (const warning of security.warnings) logger.warn(protection, warning);
  const healthPort = healthListener ? { health_address: config.GRPC_HEALTH_ADDRESS, health_port: healthListener.port } : {};
  logger.info({ port, address: config.GRPC_ADDRESS, ...healthPort, services: serviceNames, ...protection, ...started.details }, `${spec.name} listening`);
  const metricsServer = await startMetricsServer(config.METRICS_PORT, logger);
  const background = (await started.afterListening?.()) ?? [];
  await health.markStarted();

  installGracefulShutdown(
    logger,
    [
      { name: 'grpc-health', close: async () => health.stopServing() },
      { name: 'grpc', close: () => shutdownGrpcServer(server) },
      ...background,
      ...started.closers,
      { name: 'grpc-clients', close: async () => clients.close() },
      ...(metricsServer ? [{ name: 'metrics', close: () => metricsServer.close() }] : []),
      ...(healthListener ? [{ name: 'grpc-health-listener', close: async () => healthListener.close() }] : []),
    ],
    config.SHUTDOWN_GRACE_MS,
  );
}
