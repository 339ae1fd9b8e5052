import { createHash } from 'node:crypto';
import { ServerCredentials, experimental } from '@grpc/grpc-js';
import type { GrpcSecurityConfig } from './grpc-security-config';

/** How often the certificate files are read again, so rotated certificates apply without a restart. */
const CERTIFICATE_REFRESH_MS = 60_000;

export interface GrpcServerSecurity {
  credentials: ServerCredentials;
  tls: boolean;
  /** Client certificates signed by GRPC_TLS_CA identify callers. */
  clientCertificates: boolean;
  /** SHA-256 (hex) of each caller token -> the caller's name. */
  tokenCallers: ReadonlyMap<string, string>;
  /** Calls without any credential are let through (GRPC_ALLOW_INSECURE=true). */
  allowUnauthenticated: boolean;
  /** Said once in a log line at start: what this server accepts that production would not. */
  warnings: string[];
}

export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * What a server requires of its callers. Refuses (throws) a configuration under which any process
 * that reaches the port could call it, unless GRPC_ALLOW_INSECURE=true says so explicitly.
 */
export function grpcServerSecurity(config: GrpcSecurityConfig): GrpcServerSecurity {
  const { GRPC_TLS_CERT: cert, GRPC_TLS_KEY: key, GRPC_TLS_CA: ca } = config;
  if (!cert !== !key) throw new Error('GRPC_TLS_CERT and GRPC_TLS_KEY go together');
  if (ca && !cert) throw new Error('GRPC_TLS_CA needs GRPC_TLS_CERT and GRPC_TLS_KEY: client certificates are verified over TLS only');
  const tls = !!cert;
  const clientCertificates = tls && !!ca;
  const tokenCallers = new Map([...config.GRPC_AUTH_TOKENS].map(([token, name]) => [tokenDigest(token), name]));
  if (!clientCertificates && tokenCallers.size === 0 && !config.GRPC_ALLOW_INSECURE) {
    throw new Error(
      'gRPC callers would not be authenticated: set GRPC_TLS_CERT, GRPC_TLS_KEY and GRPC_TLS_CA (mutual TLS) or GRPC_AUTH_TOKENS, or GRPC_ALLOW_INSECURE=true for local use only',
    );
  }
  const warnings: string[] = [];
  if (!tls) warnings.push('gRPC served in plaintext (no GRPC_TLS_CERT): only behind a mesh that encrypts, or locally');
  if (config.GRPC_ALLOW_INSECURE) warnings.push('GRPC_ALLOW_INSECURE=true: calls without a client certificate or token are accepted; local use only');
  return { credentials: serverCredentials(cert, key, ca), tls, clientCertificates, tokenCallers, allowUnauthenticated: config.GRPC_ALLOW_INSECURE, warnings };
}

function serverCredentials(cert: string | undefined, key: string | undefined, ca: string | undefined): ServerCredentials {
  if (!cert || !key) return ServerCredentials.createInsecure();
  const files = new experimental.FileWatcherCertificateProvider({
    certificateFile: cert,
    privateKeyFile: key,
    ...(ca ? { caCertificateFile: ca } : {}),
    refreshIntervalMs: CERTIFICATE_REFRESH_MS,
  });
  // A client certificate is asked for but not required at the handshake: a call without one, or
  // with one from another CA, is answered UNAUTHENTICATED (a token may still identify it) instead
  // of a bare connection failure. The same provider serves the identity and the CA.
  return experimental.createCertificateProviderServerCredentials(files, ca ? files : null, false);
}
