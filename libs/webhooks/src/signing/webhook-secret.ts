import { randomBytes } from 'node:crypto';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** Random bytes behind a new secret (Standard Webhooks asks for 24 to 64). */
const SECRET_BYTES = 32;

const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** `whsec_<base64 of 32 random bytes>`: shown once, on creation and on rotation. */
export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/**
 * The HMAC key of the Standard Webhooks signature: the bytes the base64 after `whsec_` encodes.
 * A secret of another form (seeded before endpoints had generated secrets, e.g.
 * `demo-webhook-secret-local-only`) keys it with its own bytes as given, which is what
 * `new Webhook(secret, { format: 'raw' })` of the standardwebhooks libraries does.
 */
export function standardSigningKey(secret: string): Buffer {
  if (secret.startsWith(WEBHOOK_SECRET_PREFIX)) {
    const encoded = secret.slice(WEBHOOK_SECRET_PREFIX.length);
    if (encoded.length > 0 && STRICT_BASE64.test(encoded)) return Buffer.from(encoded, 'base64');
  }
  return Buffer.from(secret, 'utf8');
}

/** The secrets that still sign at `now`: the current one and, for 24 h after a rotation, the previous ones. */
export function liveSecrets<Secret extends { secret: string; expires_at: Date | null }>(secrets: readonly Secret[], now: Date): Secret[] {
  return secrets.filter((secret) => secret.expires_at === null || secret.expires_at.getTime() > now.getTime());
}
