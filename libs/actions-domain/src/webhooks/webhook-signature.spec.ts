import { createHmac } from 'node:crypto';
import { signWebhookBody, verifyWebhookSignature, webhookSignatureHex } from './webhook-signature';

const secret = 'whsec_0123456789abcdef';
const body = JSON.stringify({ id: 'e1', type: 'action.failed', created_at: '2026-01-01T00:00:00.000Z', data: { a: 1 } });

describe('signWebhookBody', () => {
  it('is t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">', () => {
    const expected = createHmac('sha256', secret).update(`1767225600.${body}`).digest('hex');
    expect(signWebhookBody(secret, body, 1767225600)).toBe(`t=1767225600,v1=${expected}`);
  });

  it('floors fractional seconds and signs that same timestamp', () => {
    const header = signWebhookBody(secret, body, 1767225600.987);
    expect(header).toBe(`t=1767225600,v1=${webhookSignatureHex(secret, body, 1767225600)}`);
  });

  it('matches a known vector', () => {
    expect(webhookSignatureHex('secret', '{}', 0)).toBe(createHmac('sha256', 'secret').update('0.{}').digest('hex'));
    expect(webhookSignatureHex('secret', '{}', 0)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('verifyWebhookSignature', () => {
  const header = signWebhookBody(secret, body, 1000);

  it('accepts the signature of the same body and secret within the tolerance', () => {
    expect(verifyWebhookSignature({ secret, body, header, nowSeconds: 1100 })).toBe(true);
  });

  it.each([
    ['another body', { body: `${body} ` }],
    ['another secret', { secret: 'whsec_another_secret_value' }],
    ['an old timestamp', { nowSeconds: 1000 + 301 }],
    ['no header', { header: undefined }],
    ['a malformed header', { header: 't=abc,v1=zz' }],
    ['a tampered timestamp', { header: header.replace('t=1000', 't=1001') }],
  ])('refuses %s', (_case, change) => {
    expect(verifyWebhookSignature({ secret, body, header, nowSeconds: 1100, ...change })).toBe(false);
  });
});
