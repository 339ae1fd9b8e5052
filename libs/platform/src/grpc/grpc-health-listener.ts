import * as grpc from '@grpc/grpc-js';
import type { ServiceHealth } from './grpc-health';
import { bindGrpcServer } from './grpc-server-lifecycle';

export interface HealthListener {
  port: number;
  close(): void;
}

/**
 * A second, plaintext port serving grpc.health.v1 and nothing else (GRPC_HEALTH_ADDRESS), with
 * the statuses of the main server's health service: the kubelet's `grpc:` probe cannot speak TLS,
 * so it could not reach a main port that requires mutual TLS. Health answers reveal nothing and
 * need no caller authentication; no business service and no reflection are served here.
 */
export async function listenForHealthChecks(health: ServiceHealth, address: string): Promise<HealthListener> {
  const server = new grpc.Server();
  health.addTo(server);
  const port = await bindGrpcServer(server, address);
  // Nothing here is worth draining: a Check answers at once and a Watch never ends by itself.
  return { port, close: () => server.forceShutdown() };
}
