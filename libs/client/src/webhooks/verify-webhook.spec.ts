import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { signWebhook } from './sign-webhook';
import { WebhookVerificationError, verifyWebhook } from './verify-webhook';

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

const event = {
  id: 'f7a8b9c0-d1e2-4f3a-8b5c-6d7e8f9a0b1c',
  type: 'note.created',
  created_at: '2026-01-31T18:04:05.000Z',
  business: { slug: 'acme' },
  conversation: { uuid: '0b6d5c1e-8f3a-4c2d-9e7b-5a4f3e2d1c0b' },
  sequence: 7,
  data: { uuid: '0f1a2b3c-4d5e-4f6a-9b8c-9d0e1f2a3b4c', kind: 'note', created_at: '2026-01-31T18:04:05.000Z', author: { type: 'api_token', uuid: null, name: null }, note: 'Prefers mornings – ¡gracias! 😀' },
};
const body = JSON.stringify(event);

/** The headers standardwebhooks' own signer produces. */
function signedByLibrary(secret: string, payload: string, at = new Date(), id = event.id) {
  return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign(id, at, payload) };
}

describe('verifyWebhook', () => {
  it('verifies what standardwebhooks signs and returns the typed event', () => {
    const secret = newSecret();
    const verified = verifyWebhook(body, signedByLibrary(secret, body), secret);
    expect(verified).toEqual(event);
    if (verified.type === 'note.created') expect(verified.data.note).toBe(event.data.note);
  });

  it('signs what standardwebhooks verifies', () => {
    const secret = newSecret();
    const headers = signWebhook(body, secret);
    expect(headers['webhook-id']).toBe(event.id);
    expect(new Webhook(secret).verify(body, headers)).toEqual(event);
    expect(verifyWebhook(body, headers, secret)).toEqual(event);
  });

  it('takes the body as bytes, and headers in any case or as fetch Headers', () => {
    const secret = newSecret();
    const headers = signedByLibrary(secret, body);
    const upper = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toUpperCase(), value]));
    expect(verifyWebhook(Buffer.from(body), upper, secret).id).toBe(event.id);
    expect(verifyWebhook(new TextEncoder().encode(body), new Headers(headers), secret).id).toBe(event.id);
  });

  it('accepts any of several signatures during a rotation, and any of several secrets', () => {
    const [oldSecret, newer, unrelated] = [newSecret(), newSecret(), newSecret()];
    const headers = signWebhook(body, [oldSecret, newer]);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(oldSecret).verify(body, headers)).toEqual(event);
    expect(new Webhook(newer).verify(body, headers)).toEqual(event);
    expect(verifyWebhook(body, headers, newer).id).toBe(event.id);
    expect(verifyWebhook(body, headers, oldSecret).id).toBe(event.id);
    expect(verifyWebhook(body, signWebhook(body, newer), [unrelated, newer]).id).toBe(event.id);
    expect(() => verifyWebhook(body, headers, unrelated)).toThrow(WebhookVerificationError);
  });

  it('refuses a tampered body, whichever side signed it', () => {
    const secret = newSecret();
    const tampered = body.replace('Prefers', 'Refuses');
    expect(() => verifyWebhook(tampered, signedByLibrary(secret, body), secret)).toThrow('No signature matches');
    expect(() => new Webhook(secret).verify(tampered, signWebhook(body, secret))).toThrow();
  });

  it('refuses the wrong secret, whichever side signed it', () => {
    const [secret, other] = [newSecret(), newSecret()];
    expect(() => verifyWebhook(body, signedByLibrary(secret, body), other)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(other).verify(body, signWebhook(body, secret))).toThrow();
  });

  it('refuses a timestamp more than 5 minutes old or ahead, as standardwebhooks does', () => {
    const secret = newSecret();
    const now = new Date();
    const old = signedByLibrary(secret, body, new Date(now.getTime() - 301_000));
    const ahead = signedByLibrary(secret, body, new Date(now.getTime() + 301_000));
    const recent = signedByLibrary(secret, body, new Date(now.getTime() - 299_000));
    expect(() => verifyWebhook(body, old, secret, { now })).toThrow('too old');
    expect(() => verifyWebhook(body, ahead, secret, { now })).toThrow('future');
    expect(verifyWebhook(body, recent, secret, { now }).id).toBe(event.id);
    expect(() => new Webhook(secret).verify(body, signWebhook(body, secret, { timestamp: new Date(Date.now() - 301_000) }))).toThrow();
  });

  it('refuses missing headers, a timestamp that is not seconds, and a signature of another scheme', () => {
    const secret = newSecret();
    const headers = signedByLibrary(secret, body);
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
      const { [name]: _missing, ...rest } = headers;
      expect(() => verifyWebhook(body, rest, secret)).toThrow('Missing');
    }
    expect(() => verifyWebhook(body, { ...headers, 'webhook-timestamp': '2026-01-31T18:04:05Z' }, secret)).toThrow('not a number');
    expect(() => verifyWebhook(body, { ...headers, 'webhook-signature': headers['webhook-signature'].replace('v1,', 'v2,') }, secret)).toThrow('No signature matches');
  });

  it('refuses a webhook-id other than the envelope id, though correctly signed', () => {
    const secret = newSecret();
    expect(() => verifyWebhook(body, signedByLibrary(secret, body, new Date(), 'another-id'), secret)).toThrow('differs from webhook-id');
  });

  it('refuses parsed JSON instead of the raw body', () => {
    const secret = newSecret();
    expect(() => verifyWebhook(event as never, signedByLibrary(secret, body), secret)).toThrow(TypeError);
  });
});
