import { createHmac } from 'node:crypto';
import { type GatewayHarness, HARNESS_CHAT_APP_SECRET, HARNESS_CHAT_VERIFY_TOKEN, startGatewayHarness } from '../testing/gateway-harness';

const payload = {
  object: 'whatsapp_business_account',
  entry: [
    {
      id: 'waba-1',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { phone_number_id: 'pn-1' },
            contacts: [{ wa_id: '5215512345678', profile: { name: 'Ana' } }],
            messages: [{ from: '5215512345678', id: 'wamid.1', timestamp: '1700000000', type: 'text', text: { body: 'Hola' } }],
            statuses: [{ id: 'wamid.0', status: 'delivered', timestamp: '1700000001', recipient_id: '5215512345678' }],
          },
        },
      ],
    },
  ],
};

const sign = (body: string, secret = HARNESS_CHAT_APP_SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

describe('/webhooks/chat', () => {
  let harness: GatewayHarness;

  beforeAll(async () => {
    harness = await startGatewayHarness();
  });
  afterAll(() => harness.close());
  beforeEach(() => harness.chatInbound.splice(0));

  const post = (body: string, signature?: string, contentType = 'application/json') =>
    harness.request('/webhooks/chat', { method: 'POST', anonymous: true, body, headers: { 'content-type': contentType, ...(signature ? { 'x-hub-signature-256': signature } : {}) } });

  it('answers the subscription handshake with the challenge as text', async () => {
    const response = await harness.request(`/webhooks/chat?hub.mode=subscribe&hub.verify_token=${HARNESS_CHAT_VERIFY_TOKEN}&hub.challenge=1158201444`, { anonymous: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toBe('1158201444');
  });

  it.each([
    ['a wrong verify token', 'hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1'],
    ['another mode', `hub.mode=unsubscribe&hub.verify_token=${HARNESS_CHAT_VERIFY_TOKEN}&hub.challenge=1`],
    ['no parameters', ''],
  ])('refuses the handshake with %s: 403', async (_case, query) => {
    const response = await harness.request(`/webhooks/chat?${query}`, { anonymous: true });
    expect(response.status).toBe(403);
  });

  it('acknowledges a signed delivery after publishing one keyed event per message and status', async () => {
    const body = JSON.stringify(payload);
    const response = await post(body, sign(body));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: 2 });
    expect(harness.chatInbound.map((message) => [message.key, message.value.kind])).toEqual([
      ['pn-1:5215512345678', 'message'],
      ['pn-1:5215512345678', 'status'],
    ]);
  });

  it('checks the signature over the raw bytes: the same JSON re-serialised does not pass', async () => {
    const body = JSON.stringify(payload, null, 2);
    const response = await post(body, sign(JSON.stringify(payload)));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ code: 'INVALID_WEBHOOK_SIGNATURE', message: expect.any(String) });
    expect(harness.chatInbound).toEqual([]);
  });

  it.each([
    ['no signature', undefined],
    ['another secret', sign(JSON.stringify(payload), 'another-secret')],
    ['a malformed header', 'sha1=abc'],
  ])('refuses a delivery with %s: 401 INVALID_WEBHOOK_SIGNATURE', async (_case, signature) => {
    const response = await post(JSON.stringify(payload), signature);
    expect(response.status).toBe(401);
    expect(((await response.json()) as { code: string }).code).toBe('INVALID_WEBHOOK_SIGNATURE');
  });

  it('acknowledges a signed body it cannot use without publishing anything', async () => {
    const body = JSON.stringify({ object: 'page', entry: [] });
    const response = await post(body, sign(body), 'text/plain');
    expect(response.status).toBe(200);
    expect(harness.chatInbound).toEqual([]);
  });

  it('answers 405 to other methods', async () => {
    const response = await harness.request('/webhooks/chat', { method: 'DELETE', anonymous: true });
    expect(response.status).toBe(405);
  });
});
