import type { PeerCertificate } from 'node:tls';
import {
  type Metadata,
  ResponderBuilder,
  ServerInterceptingCall,
  type ServerInterceptingCallInterface,
  type ServerInterceptor,
  ServerListenerBuilder,
  status,
} from '@grpc/grpc-js';
import { AUTHORIZATION_METADATA } from '@cmsg/proto';
import type { Logger } from '../logger';
import { type GrpcServerSecurity, tokenDigest } from './grpc-server-security';

/**
 * Set by the server on every call it lets through (any value a client sent is dropped first):
 * the caller's name, read by the handlers for logs and spans.
 */
export const CALLER_METADATA = 'x-cmsg-caller';
/** The name of a caller the server let through without a credential (GRPC_ALLOW_INSECURE=true). */
export const UNAUTHENTICATED_CALLER = 'unauthenticated';

/** Health checks stay open: probes carry no credential and the answer reveals nothing. */
const OPEN_SERVICE_PREFIXES = ['/grpc.health.v1.Health/'];

/**
 * Identifies every call before its handler runs: a client certificate signed by GRPC_TLS_CA
 * (its CN, else its first SAN), else a token from GRPC_AUTH_TOKENS. A call with neither, or
 * with a wrong token, ends UNAUTHENTICATED.
 */
export function callerAuthenticationInterceptor(security: GrpcServerSecurity, logger: Logger): ServerInterceptor {
  return (method, call) => {
    const listener = new ServerListenerBuilder()
      .withOnReceiveMetadata((metadata, next) => {
        const verdict = identify(security, call, metadata);
        metadata.remove(CALLER_METADATA);
        metadata.remove(AUTHORIZATION_METADATA);
        const open = OPEN_SERVICE_PREFIXES.some((prefix) => method.path.startsWith(prefix));
        if ('refused' in verdict && !open) {
          logger.warn({ grpc_method: method.path, peer: call.getPeer(), reason: verdict.refused }, 'gRPC call refused: unauthenticated');
          call.sendStatus({ code: status.UNAUTHENTICATED, details: verdict.refused });
          return;
        }
        metadata.set(CALLER_METADATA, 'caller' in verdict ? verdict.caller : UNAUTHENTICATED_CALLER);
        next(metadata);
      })
      .build();
    return new ServerInterceptingCall(call, new ResponderBuilder().withStart((next) => next(listener)).build());
  };
}

type Verdict = { caller: string } | { refused: string };

function identify(security: GrpcServerSecurity, call: ServerInterceptingCallInterface, metadata: Metadata): Verdict {
  // Present only when the certificate chains to GRPC_TLS_CA (grpc-js reports unauthorized peers as none).
  const certificate = security.clientCertificates ? call.getAuthContext().sslPeerCertificate : undefined;
  if (certificate) {
    const name = certificateName(certificate);
    if (name) return { caller: name };
  }
  const authorization = metadata.get(AUTHORIZATION_METADATA)[0];
  if (typeof authorization === 'string' && authorization.startsWith('Bearer ')) {
    const caller = security.tokenCallers.get(tokenDigest(authorization.slice('Bearer '.length)));
    return caller ? { caller } : { refused: 'The caller token is not one this service accepts.' };
  }
  if (security.allowUnauthenticated) return { caller: UNAUTHENTICATED_CALLER };
  return { refused: 'A client certificate signed by the trusted CA, or a caller token (authorization: Bearer <token>), is required.' };
}

/** CN of the subject, else the first subject alternative name (DNS or URI, e.g. a SPIFFE id). */
export function certificateName(certificate: Pick<PeerCertificate, 'subject' | 'subjectaltname'>): string | undefined {
  const commonName = certificate.subject?.CN;
  if (typeof commonName === 'string' && commonName) return commonName;
  const firstAlternative = certificate.subjectaltname?.split(',')[0]?.trim();
  return firstAlternative ? firstAlternative.replace(/^(DNS|URI|IP Address):/, '') : undefined;
}
