import { UuidSchema } from './common.schema';
import { z } from './zod';

/** Header names of the public interface (SPEC 1.6, 8; CONTRACT 0, 1). */
export const PUBLIC_HEADERS = {
  requestId: 'X-Request-Id',
  apiVersion: 'X-Api-Version',
  idempotencyKey: 'Idempotency-Key',
  idempotentReplayed: 'Idempotent-Replayed',
  rateLimitLimit: 'X-RateLimit-Limit',
  rateLimitRemaining: 'X-RateLimit-Remaining',
  rateLimitReset: 'X-RateLimit-Reset',
  retryAfter: 'Retry-After',
  allow: 'Allow',
} as const;

/**
 * X-Request-Id as a client may send it: any value. Nothing is refused for it; a UUID is kept, and
 * anything else is replaced by a generated one (KeptRequestIdSchema decides).
 */
export const RequestIdHeaderSchema = z.string().openapi({
  description: 'Any value: a UUID is kept, anything else is replaced by a generated UUID; the id is echoed on every response.',
});

/** A client X-Request-Id the gateway keeps. */
export const KeptRequestIdSchema = UuidSchema;

export const IdempotencyKeyHeaderSchema = z.string().min(1).max(255).openapi({
  description: 'Optional on every POST. The same key and body within 24 h replays the first response (with Idempotent-Replayed: true) and does nothing again.',
});
