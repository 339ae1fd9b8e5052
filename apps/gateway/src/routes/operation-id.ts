import { createHash, randomUUID } from 'node:crypto';
import type { Caller } from '@cmsg/proto';

/**
 * One operation per Idempotency-Key and token: a retry that reaches the service again (the first
 * attempt crashed before the gateway stored its answer) reuses the operation, so what it does (a
 * template sent, a broadcast created) is never done twice. Hashed to keep it short whatever the
 * key's length. Without a key, each request is its own operation.
 */
export function operationIdFor(kind: 'start' | 'broadcast', caller: Caller, idempotencyKey: string | undefined): string {
  if (idempotencyKey === undefined) return `${kind}:${randomUUID()}`;
  return `${kind}:${createHash('sha256').update(`${caller.token_uuid}\n${idempotencyKey}`).digest('hex')}`;
}
