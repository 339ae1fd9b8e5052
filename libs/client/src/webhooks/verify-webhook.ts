import { timingSafeEqual } from 'node:crypto';
import type { components } from '../generated/openapi';
import { WEBHOOK_HEADERS, bodyBytesOf, signatureOf, signingKeyOf } from './webhook-signature';

/** A delivered event: the envelope of CONTRACT 9.2; `type` tells the shape of `data`. */
export type WebhookEvent = components['schemas']['EventEnvelope'];
export type WebhookEventType = WebhookEvent['type'];
export type WebhookEventOf<Type extends WebhookEventType> = Extract<WebhookEvent, { type: Type }>;

/** Node's IncomingHttpHeaders, a plain record (any case) or a fetch Headers. */
export type WebhookHeaders = Headers | Record<string, string | readonly string[] | undefined>;

export interface VerifyWebhookOptions {
  /** How far webhook-timestamp may be from now, in seconds (default 300). */
  toleranceSeconds?: number;
  now?: Date;
}

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | readonly string[] | undefined>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : (value as string | undefined);
}

/**
 * Checks a webhook delivery as the Standard Webhooks convention signs it and returns its event:
 * one of the `v1,<base64>` signatures in webhook-signature (several during a secret rotation) must
 * be the HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>` under the secret (or one of
 * the secrets given), the timestamp within 5 minutes of now, and the envelope's id the webhook-id.
 * Throws WebhookVerificationError otherwise. Deduplicate on `event.id` afterwards.
 */
export function verifyWebhook(payload: string | Uint8Array, headers: WebhookHeaders, secret: string | readonly string[], options: VerifyWebhookOptions = {}): WebhookEvent {
  const body = bodyBytesOf(payload);
  const id = headerOf(headers, WEBHOOK_HEADERS.id);
  const timestamp = headerOf(headers, WEBHOOK_HEADERS.timestamp);
  const signatures = headerOf(headers, WEBHOOK_HEADERS.signature);
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature.');

  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not a number of seconds.');
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (nowSeconds - Number(timestamp) > tolerance) throw new WebhookVerificationError('webhook-timestamp is too old.');
  if (Number(timestamp) - nowSeconds > tolerance) throw new WebhookVerificationError('webhook-timestamp is too far in the future.');

  const offered = signatures
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => Buffer.from(entry.slice(3), 'base64'));
  const secrets = typeof secret === 'string' ? [secret] : secret;
  const matches = secrets.some((candidate) => {
    const expected = signatureOf(signingKeyOf(candidate), id, timestamp, body);
    return offered.some((signature) => signature.length === expected.length && timingSafeEqual(signature, expected));
  });
  if (!matches) throw new WebhookVerificationError('No signature matches.');

  let event: WebhookEvent;
  try {
    event = JSON.parse(Buffer.from(body).toString('utf8')) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('The signed body is not JSON.');
  }
  if (typeof event !== 'object' || event === null || event.id !== id) throw new WebhookVerificationError('The event id differs from webhook-id.');
  return event;
}
