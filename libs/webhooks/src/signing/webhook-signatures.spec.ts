import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { deliveryHeaders } from './delivery-headers';
import { generateWebhookSecret, liveSecrets, standardSigningKey } from './webhook-secret';
import { standardWebhookSignature, verifyXWebhookSignature, webhookSignatureHex, xWebhookSignatureHeader } from './webhook-signatures';

const body = JSON.stringify({ id: 'e1', type: 'ping', created_at: '2026-01-01T00:00:00.000Z', business: { slug: 'acme' }, conversation: null, sequence: 0, data: {} });

describe('webhook secrets', () => {
  it('are whsec_ and the base64 of 32 random bytes, each new', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(standardSigningKey(secret)).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it('key a secret of another form (seeded before) with its own bytes', () => {
    expect(standardSigningKey('demo-webhook-secret-local-only')).toEqual(Buffer.from('demo-webhook-secret-local-only'));
    expect(standardSigningKey('whsec_not base64!')).toEqual(Buffer.from('whsec_not base64!'));
  });

  it('sign while not expired', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const secrets = [
      { secret: 'new', expires_at: null },
      { secret: 'old', expires_at: new Date('2026-01-01T00:00:01Z') },
      { secret: 'gone', expires_at: now },
    ];
    expect(liveSecrets(secrets, now).map((entry) => entry.secret)).toEqual(['new', 'old']);
  });
});

describe('Standard Webhooks signature', () => {
  it('verifies with the standardwebhooks library, for each live secret during a rotation', () => {
    const [current, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const now = new Date();
    const headers = deliveryHeaders('msg_1', body, [current, previous], now);
    expect(headers['webhook-id']).toBe('msg_1');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(current).verify(`${body} `, headers)).toThrow();
  });

  it('verifies a seeded non-whsec secret as a raw key', () => {
    const headers = deliveryHeaders('msg_2', body, ['demo-webhook-secret-local-only'], new Date());
    expect(new Webhook('demo-webhook-secret-local-only', { format: 'raw' }).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('is the base64 HMAC-SHA256 of "<id>.<timestamp>.<body>"', () => {
    const key = Buffer.alloc(24, 7);
    const secret = `whsec_${key.toString('base64')}`;
    expect(standardWebhookSignature(secret, 'id', 1700000000, '{}')).toBe(`v1,${createHmac('sha256', key).update('id.1700000000.{}').digest('base64')}`);
  });
});

describe('X-Webhook-Signature (CONTRACT 4)', () => {
  const secret = 'whsec_0123456789abcdef';

  it('is t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>"> keyed with the whole secret string', () => {
    expect(xWebhookSignatureHeader([secret], body, 1767225600.9)).toBe(`t=1767225600,v1=${createHmac('sha256', secret).update(`1767225600.${body}`).digest('hex')}`);
    expect(deliveryHeaders('e1', body, [secret], new Date(1767225600_000))['X-Webhook-Signature']).toBe(`t=1767225600,v1=${webhookSignatureHex(secret, body, 1767225600)}`);
  });

  it('carries one v1 per live secret, and a receiver with either verifies', () => {
    const header = xWebhookSignatureHeader([secret, 'whsec_previous_secret'], body, 1000);
    expect(header.split(',')).toHaveLength(3);
    expect(verifyXWebhookSignature({ secret, body, header, nowSeconds: 1000 })).toBe(true);
    expect(verifyXWebhookSignature({ secret: 'whsec_previous_secret', body, header, nowSeconds: 1000 })).toBe(true);
  });

  it.each([
    ['another body', { body: `${body} ` }],
    ['another secret', { secret: 'whsec_another_secret_value' }],
    ['an old timestamp', { nowSeconds: 1000 + 301 }],
    ['no header', { header: undefined }],
    ['a malformed header', { header: 't=abc,v1=zz' }],
  ])('refuses %s', (_case, change) => {
    const header = xWebhookSignatureHeader([secret], body, 1000);
    expect(verifyXWebhookSignature({ secret, body, header, nowSeconds: 1100, ...change })).toBe(false);
  });
});
