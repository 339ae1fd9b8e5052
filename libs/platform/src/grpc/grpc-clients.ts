import { type GeneratedClientConstructor, type ServiceClient, createServiceClient } from '@cmsg/proto';
import type * as grpc from '@grpc/grpc-js';
import type { Logger } from '../logger';
import { currentRequestContext } from '../request-context';
import { type GrpcClientSecurity, grpcClientSecurity } from './grpc-client-security';
import type { GrpcSecurityConfig } from './grpc-security-config';

export interface ConnectOptions<Client> {
  address: string;
  deadlineMs: number;
  methodDeadlinesMs?: Parameters<typeof createServiceClient<Client & grpc.Client>>[1]['methodDeadlinesMs'];
}

/**
 * Every gRPC client of one process, through the published client helper of libs/proto: the
 * process's TLS certificate or token, and the current request context (request id, the caller's
 * remaining deadline, its cancellation) on every call. The security is worked out at the first
 * client, so a process that calls nobody needs no client credentials.
 */
export class GrpcClients {
  private security: GrpcClientSecurity | undefined;
  private readonly clients: ServiceClient<unknown>[] = [];

  constructor(
    private readonly config: GrpcSecurityConfig,
    private readonly logger: Logger,
  ) {}

  connect<Client extends grpc.Client>(ClientConstructor: GeneratedClientConstructor<Client>, options: ConnectOptions<Client>): ServiceClient<Client> {
    if (!this.security) {
      this.security = grpcClientSecurity(this.config);
      for (const warning of this.security.warnings) this.logger.warn({ grpc_client_security: describe(this.security) }, warning);
    }
    const client = createServiceClient(ClientConstructor, {
      address: options.address,
      security: this.security.security,
      deadlineMs: options.deadlineMs,
      ...(options.methodDeadlinesMs ? { methodDeadlinesMs: options.methodDeadlinesMs } : {}),
      callContext: currentRequestContext,
    });
    this.clients.push(client as ServiceClient<unknown>);
    return client;
  }

  close(): void {
    for (const client of this.clients.splice(0)) client.close();
  }
}

function describe(security: GrpcClientSecurity): string {
  const { tls, token } = security.security;
  return [tls ? (tls.cert ? 'mutual TLS' : 'TLS') : 'plaintext', token ? 'token' : 'no token'].join(', ');
}
