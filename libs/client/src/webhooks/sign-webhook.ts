import { randomUUID } from 'node:crypto';
import { WEBHOOK_HEADERS, bodyBytesOf, signatureOf, signingKeyOf } from './webhook-signature';

export interface SignWebhookOptions {
  /** webhook-id; the envelope's id when the payload has one, otherwise a random UUID. */
  id?: string;
  timestamp?: Date;
}

/**
 * The Standard Webhooks headers the API sends with `payload`, one signature per secret: for
 * testing a receiver (and whatever verifies it) without a running API.
 */
export function signWebhook(payload: string | Uint8Array, secret: string | readonly string[], options: SignWebhookOptions = {}): Record<string, string> {
  const body = bodyBytesOf(payload);
  const id = options.id ?? idOf(body) ?? randomUUID();
  const timestamp = String(Math.floor((options.timestamp ?? new Date()).getTime() / 1000));
  const secrets = typeof secret === 'string' ? [secret] : secret;
  const signatures = secrets.map((candidate) => `v1,${signatureOf(signingKeyOf(candidate), id, timestamp, body).toString('base64')}`);
  return { [WEBHOOK_HEADERS.id]: id, [WEBHOOK_HEADERS.timestamp]: timestamp, [WEBHOOK_HEADERS.signature]: signatures.join(' ') };
}

function idOf(body: Uint8Array): string | undefined {
  try {
    const id = (JSON.parse(Buffer.from(body).toString('utf8')) as { id?: unknown }).id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}
