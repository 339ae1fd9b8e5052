import { createHmac, timingSafeEqual } from 'node:crypto';
import { standardSigningKey } from './webhook-secret';

/** The header of CONTRACT 4 that receivers built before Standard Webhooks verify. */
export const X_WEBHOOK_SIGNATURE_HEADER = 'X-Webhook-Signature';

/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` keyed as standardSigningKey says. */
export function standardWebhookSignature(secret: string, id: string, unixSeconds: number, body: string): string {
  return `v1,${createHmac('sha256', standardSigningKey(secret)).update(`${id}.${unixSeconds}.${body}`).digest('base64')}`;
}

/** `webhook-signature`: one `v1,` signature per live secret, newest first, separated by spaces. */
export function standardWebhookSignatureHeader(secrets: readonly string[], id: string, unixSeconds: number, body: string): string {
  return secrets.map((secret) => standardWebhookSignature(secret, id, unixSeconds, body)).join(' ');
}

/** Hex HMAC-SHA256 of "<t>.<body>" keyed with the whole secret string (`whsec_...` included). */
export function webhookSignatureHex(secret: string, body: string, unixSeconds: number): string {
  return createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
}

/**
 * `X-Webhook-Signature: t=<unix seconds>,v1=<hex>` (CONTRACT 4); during a rotation one `v1=` per
 * live secret, newest first, as Stripe-style receivers expect.
 */
export function xWebhookSignatureHeader(secrets: readonly string[], body: string, unixSeconds: number): string {
  const timestamp = Math.floor(unixSeconds);
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${webhookSignatureHex(secret, body, timestamp)}`)].join(',');
}

export interface XWebhookSignatureCheck {
  secret: string;
  body: string;
  header: string | null | undefined;
  /** Receiver's clock, unix seconds. */
  nowSeconds: number;
  /** Oldest accepted timestamp; default 5 minutes. */
  toleranceSeconds?: number;
}

/** What a receiver of X-Webhook-Signature does: parse, recompute, compare in constant time, bound the age. */
export function verifyXWebhookSignature(check: XWebhookSignatureCheck): boolean {
  const parts = (check.header ?? '').split(',').map((part) => part.trim().split('='));
  const timestamp = Number(parts.find(([key]) => key === 't')?.[1]);
  const signatures = parts.filter(([key, value]) => key === 'v1' && value !== undefined && /^[0-9a-f]{64}$/.test(value)).map(([, value]) => value!);
  if (!Number.isInteger(timestamp) || signatures.length === 0) return false;
  if (Math.abs(check.nowSeconds - timestamp) > (check.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(webhookSignatureHex(check.secret, check.body, timestamp), 'hex');
  return signatures.some((signature) => timingSafeEqual(expected, Buffer.from(signature, 'hex')));
}
