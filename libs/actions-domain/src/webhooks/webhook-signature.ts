import { createHmac, timingSafeEqual } from 'node:crypto';

export const WEBHOOK_SIGNATURE_HEADER = 'X-Webhook-Signature';

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the endpoint secret>` (CONTRACT 4).
 * The timestamp is inside the signed text, so a receiver can refuse replays of old deliveries.
 */
export function signWebhookBody(secret: string, body: string, unixSeconds: number): string {
  const timestamp = Math.floor(unixSeconds);
  return `t=${timestamp},v1=${webhookSignatureHex(secret, body, timestamp)}`;
}

export function webhookSignatureHex(secret: string, body: string, unixSeconds: number): string {
  return createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
}

export interface WebhookSignatureCheck {
  secret: string;
  body: string;
  header: string | null | undefined;
  /** Receiver's clock, unix seconds. */
  nowSeconds: number;
  /** Oldest accepted timestamp; default 5 minutes. */
  toleranceSeconds?: number;
}

/** What a receiver does: parse the header, recompute, compare in constant time, bound the age. */
export function verifyWebhookSignature(check: WebhookSignatureCheck): boolean {
  const parts = new Map(
    (check.header ?? '')
      .split(',')
      .map((part) => part.trim().split('='))
      .filter((pair): pair is [string, string] => pair.length === 2),
  );
  const timestamp = Number(parts.get('t'));
  const signature = parts.get('v1');
  if (!Number.isInteger(timestamp) || !signature || !/^[0-9a-f]{64}$/.test(signature)) return false;
  if (Math.abs(check.nowSeconds - timestamp) > (check.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(webhookSignatureHex(check.secret, check.body, timestamp), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}
