import { type ChannelCredentials, credentials } from '@grpc/grpc-js';

/**
 * How a client proves who it is and protects the connection (docs/grpc.md, "Authentication").
 * One of `tls` or `insecure` is required: plaintext is never a default.
 */
export interface ClientSecurity {
  /** PEM contents. `ca` verifies the server; `cert` and `key` are this caller's certificate (mutual TLS). */
  tls?: { ca: Buffer; cert?: Buffer; key?: Buffer };
  /** Sent as `authorization: Bearer <token>` on every call (where TLS ends at a mesh). */
  token?: string;
  /** Plaintext; for local use, or behind a mesh that encrypts (then with a token). */
  insecure?: boolean;
}

export function channelCredentialsFor(security: ClientSecurity): ChannelCredentials {
  if (security.tls && security.insecure) throw new Error('gRPC client security: choose tls or insecure, not both');
  if (security.tls) {
    const { ca, cert, key } = security.tls;
    if (!cert !== !key) throw new Error('gRPC client security: a client certificate needs both cert and key');
    return credentials.createSsl(ca, key ?? null, cert ?? null);
  }
  if (security.insecure) return credentials.createInsecure();
  throw new Error('gRPC client security: set tls (the CA, and cert and key for mutual TLS), or insecure: true explicitly');
}
