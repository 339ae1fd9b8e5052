import { createHmac, timingSafeEqual } from 'node:crypto';
import { CatalogError } from '@cmsg/errors';

export const WEBHOOK_SIGNATURE_HEADER = 'x-hub-signature-256';

/**
 * Checks `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body keyed by the app secret>`.
 * The raw bytes matter: re-serialised JSON would not match. Comparison is constant-time.
 */
export function verifyWebhookSignature(rawBody: Buffer, header: string | undefined, appSecret: string): boolean {
  if (!header || !appSecret) return false;
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim());
  if (!match) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(match[1]!, 'hex'));
}

/** verifyWebhookSignature for handlers that raise: INVALID_WEBHOOK_SIGNATURE (401). */
export function assertWebhookSignature(rawBody: Buffer, header: string | undefined, appSecret: string): void {
  if (!verifyWebhookSignature(rawBody, header, appSecret)) throw new CatalogError('INVALID_WEBHOOK_SIGNATURE');
}

/**
 * The subscription handshake `GET ?hub.mode=subscribe&hub.verify_token=...&hub.challenge=...`:
 * returns the challenge to echo (as text/plain, 200) or null when the request must be refused (403).
 * Accepts flat keys (`hub.mode`) and the nested form some query parsers produce (`hub: { mode }`).
 */
export function webhookVerifyChallenge(query: Record<string, unknown>, verifyToken: string): string | null {
  const nested = typeof query['hub'] === 'object' && query['hub'] !== null ? (query['hub'] as Record<string, unknown>) : {};
  const mode = single(query['hub.mode'] ?? nested['mode']);
  const token = single(query['hub.verify_token'] ?? nested['verify_token']);
  const challenge = single(query['hub.challenge'] ?? nested['challenge']);
  if (mode !== 'subscribe' || token === undefined || challenge === undefined || !verifyToken) return null;
  return constantTimeEqual(token, verifyToken) ? challenge : null;
}

function single(value: unknown): string | undefined {
  if (Array.isArray(value)) return single(value[0]);
  return typeof value === 'string' ? value : undefined;
}

function constantTimeEqual(a: string, b: string): boolean {
  // Hashing first makes the comparison length-independent too.
  const left = createHmac('sha256', 'verify-token').update(a).digest();
  const right = createHmac('sha256', 'verify-token').update(b).digest();
  return timingSafeEqual(left, right);
}
