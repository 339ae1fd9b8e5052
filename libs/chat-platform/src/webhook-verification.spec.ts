import { createHmac } from 'node:crypto';
import { assertWebhookSignature, verifyWebhookSignature, webhookVerifyChallenge } from './webhook-verification';

const secret = 'app-secret';
const rawBody = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');
const sign = (body: Buffer, key = secret) => `sha256=${createHmac('sha256', key).update(body).digest('hex')}`;

describe('verifyWebhookSignature', () => {
  it('accepts the HMAC-SHA256 of the raw body, in either hex case', () => {
    expect(verifyWebhookSignature(rawBody, sign(rawBody), secret)).toBe(true);
    expect(verifyWebhookSignature(rawBody, sign(rawBody).toUpperCase().replace('SHA256=', 'sha256='), secret)).toBe(true);
  });

  it.each([
    ['a missing header', undefined],
    ['an empty header', ''],
    ['another secret', sign(rawBody, 'other-secret')],
    ['another body', sign(Buffer.from('{}'))],
    ['no sha256= prefix', createHmac('sha256', secret).update(rawBody).digest('hex')],
    ['a sha1 signature', `sha1=${createHmac('sha1', secret).update(rawBody).digest('hex')}`],
    ['a truncated digest', sign(rawBody).slice(0, -2)],
    ['non-hex characters', `sha256=${'z'.repeat(64)}`],
  ])('refuses %s', (_case, header) => {
    expect(verifyWebhookSignature(rawBody, header, secret)).toBe(false);
  });

  it('refuses everything when no app secret is configured', () => {
    expect(verifyWebhookSignature(rawBody, sign(rawBody, ''), '')).toBe(false);
  });

  it('assertWebhookSignature raises INVALID_WEBHOOK_SIGNATURE (401)', () => {
    expect(() => assertWebhookSignature(rawBody, undefined, secret)).toThrow(
      expect.objectContaining({ code: 'INVALID_WEBHOOK_SIGNATURE', httpStatus: 401 }),
    );
    expect(() => assertWebhookSignature(rawBody, sign(rawBody), secret)).not.toThrow();
  });
});

describe('webhookVerifyChallenge', () => {
  const query = { 'hub.mode': 'subscribe', 'hub.verify_token': 'verify-me', 'hub.challenge': '1158201444' };

  it('echoes the challenge when the token matches', () => {
    expect(webhookVerifyChallenge(query, 'verify-me')).toBe('1158201444');
  });

  it('understands the nested form of extended query parsers', () => {
    expect(webhookVerifyChallenge({ hub: { mode: 'subscribe', verify_token: 'verify-me', challenge: 'c1' } }, 'verify-me')).toBe('c1');
  });

  it.each([
    ['a wrong token', { ...query, 'hub.verify_token': 'nope' }],
    ['another mode', { ...query, 'hub.mode': 'unsubscribe' }],
    ['no challenge', { 'hub.mode': 'subscribe', 'hub.verify_token': 'verify-me' }],
    ['no token', { 'hub.mode': 'subscribe', 'hub.challenge': 'c' }],
  ])('refuses %s', (_case, input) => {
    expect(webhookVerifyChallenge(input, 'verify-me')).toBeNull();
  });

  it('refuses when no verify token is configured', () => {
    expect(webhookVerifyChallenge({ ...query, 'hub.verify_token': '' }, '')).toBeNull();
  });
});
