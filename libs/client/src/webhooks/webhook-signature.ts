import { createHmac } from 'node:crypto';

/** Standard Webhooks header names (lower case, as Node hands headers over). */
export const WEBHOOK_HEADERS = { id: 'webhook-id', timestamp: 'webhook-timestamp', signature: 'webhook-signature' } as const;

const SECRET_PREFIX = 'whsec_';

/** The HMAC key of a `whsec_<base64>` secret: its base64 part, decoded. */
export function signingKeyOf(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new TypeError('The webhook secret is empty: expected whsec_ followed by base64.');
  return key;
}

/** base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`. */
export function signatureOf(key: Buffer, id: string, timestamp: string, body: Uint8Array): Buffer {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
}

export function bodyBytesOf(payload: string | Uint8Array): Uint8Array {
  if (typeof payload === 'string') return Buffer.from(payload, 'utf8');
  if (payload instanceof Uint8Array) return payload;
  throw new TypeError('Pass the raw request body (string or bytes) exactly as received, not parsed JSON: the signature covers those bytes.');
}
