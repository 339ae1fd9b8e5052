import { readFileSync } from 'node:fs';
import type { ClientSecurity } from '@cmsg/proto';
import type { GrpcSecurityConfig } from './grpc-security-config';

export interface GrpcClientSecurity {
  security: ClientSecurity;
  warnings: string[];
}

/**
 * How this process calls the services: TLS with its certificate (mutual TLS) when GRPC_TLS_CA is
 * set, its token when GRPC_CLIENT_TOKEN is. Plaintext without a token only with GRPC_ALLOW_INSECURE.
 */
export function grpcClientSecurity(config: GrpcSecurityConfig): GrpcClientSecurity {
  const { GRPC_TLS_CERT: cert, GRPC_TLS_KEY: key, GRPC_TLS_CA: ca, GRPC_CLIENT_TOKEN: token } = config;
  if (!cert !== !key) throw new Error('GRPC_TLS_CERT and GRPC_TLS_KEY go together');
  const tokenPart = token ? { token } : {};
  if (ca) {
    const tls = { ca: readFileSync(ca), ...(cert && key ? { cert: readFileSync(cert), key: readFileSync(key) } : {}) };
    return { security: { tls, ...tokenPart }, warnings: [] };
  }
  if (!token && !config.GRPC_ALLOW_INSECURE) {
    throw new Error('gRPC calls would be unauthenticated: set GRPC_TLS_CA (with GRPC_TLS_CERT and GRPC_TLS_KEY) or GRPC_CLIENT_TOKEN, or GRPC_ALLOW_INSECURE=true for local use only');
  }
  const warnings = [token ? 'gRPC calls in plaintext with a caller token (no GRPC_TLS_CA): only behind a mesh that encrypts' : 'gRPC calls in plaintext without credentials (GRPC_ALLOW_INSECURE=true): local use only'];
  return { security: { insecure: true, ...tokenPart }, warnings };
}
