import { z } from 'zod';
import { booleanVar } from '../config';

/** `name:token,name:token`: who may call, each with a token of its own (at least 16 characters). */
const callerTokens = z
  .string()
  .default('')
  .transform((value, context) => {
    const tokens = new Map<string, string>();
    for (const entry of value.split(',').map((item) => item.trim()).filter(Boolean)) {
      const separator = entry.indexOf(':');
      const name = entry.slice(0, separator).trim();
      const token = entry.slice(separator + 1).trim();
      if (separator <= 0 || token.length < 16) {
        context.addIssue({ code: 'custom', message: 'expected name:token pairs separated by commas, each token at least 16 characters' });
        return z.NEVER;
      }
      if (tokens.has(token)) {
        context.addIssue({ code: 'custom', message: `two callers share a token (${name})` });
        return z.NEVER;
      }
      tokens.set(token, name);
    }
    return tokens;
  });

/**
 * The gRPC security variables every app reads (README, "Configuration"; docs/grpc.md,
 * "Authentication"). Spread into an app's config shape; grpcServerSecurity / grpcClientSecurity
 * turn the parsed values into credentials and refuse an unsafe combination.
 */
export const grpcSecurityConfigShape = {
  /** PEM files: this process's certificate and key (served as a server, presented as a client) and the CA that signs every peer. */
  GRPC_TLS_CERT: z.string().min(1).optional(),
  GRPC_TLS_KEY: z.string().min(1).optional(),
  GRPC_TLS_CA: z.string().min(1).optional(),
  /** Servers: the callers' tokens, checked when a call has no client certificate. */
  GRPC_AUTH_TOKENS: callerTokens,
  /** Clients: the token this process presents to the services it calls. */
  GRPC_CLIENT_TOKEN: z.string().min(16).optional(),
  /** Plaintext without caller authentication, for local use only (npm start and the test harness set it). */
  GRPC_ALLOW_INSECURE: booleanVar('false'),
  /** Server reflection (grpcurl, Postman); default: on exactly when GRPC_ALLOW_INSECURE is. */
  GRPC_REFLECTION: z.enum(['true', 'false', '1', '0'], { message: 'expected true or false' }).optional(),
};

export interface GrpcSecurityConfig {
  GRPC_TLS_CERT?: string | undefined;
  GRPC_TLS_KEY?: string | undefined;
  GRPC_TLS_CA?: string | undefined;
  GRPC_AUTH_TOKENS: Map<string, string>;
  GRPC_CLIENT_TOKEN?: string | undefined;
  GRPC_ALLOW_INSECURE: boolean;
  GRPC_REFLECTION?: 'true' | 'false' | '1' | '0' | undefined;
}

export function reflectionEnabled(config: GrpcSecurityConfig): boolean {
  return config.GRPC_REFLECTION === undefined ? config.GRPC_ALLOW_INSECURE : config.GRPC_REFLECTION === 'true' || config.GRPC_REFLECTION === '1';
}
