import type * as grpc from '@grpc/grpc-js';

/**
 * The channel options of a service's gRPC server. A client balances over the addresses its target
 * resolved to when it connected, and resolves again only when a connection drops: behind a headless
 * Service (deploy/README.md), replicas added later would get no calls from clients already
 * connected. With a connection age, the server closes each connection after about that long (grpc-js
 * adds up to 10 % of jitter); its calls in flight get the shutdown grace to finish, new calls go on
 * a new connection, and the client resolves its target again.
 */
export function grpcServerOptions(config: { GRPC_MAX_CONNECTION_AGE_MS: number; SHUTDOWN_GRACE_MS: number }): grpc.ServerOptions {
  if (config.GRPC_MAX_CONNECTION_AGE_MS <= 0) return {};
  return { 'grpc.max_connection_age_ms': config.GRPC_MAX_CONNECTION_AGE_MS, 'grpc.max_connection_age_grace_ms': config.SHUTDOWN_GRACE_MS };
}
