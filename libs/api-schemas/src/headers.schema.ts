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

/** A client-sent X-Request-Id is kept only when it is a UUID; anything else is replaced. */
export const RequestIdHeaderSchema = UuidSchema.openapi({
  description: 'Kept when it is a UUID, otherwise replaced by a generated one; echoed on every response.',
});

export const IdempotencyKeyHeaderSchema = z.string().min(1).max(255).openapi({
  description: 'Optional on every POST. The same key and body within 24 h replays the first response (with Idempotent-Replayed: true) and does nothing again.',
});
