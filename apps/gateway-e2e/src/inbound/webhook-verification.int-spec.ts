import { integrationStack, inboundTextWebhook, signedWebhookRequest } from '@cmsg/testing';

describe('GET and POST /webhooks/chat: verification', () => {
  const gateway = () => integrationStack().gatewayUrls[0]!;
  const verifyToken = () => integrationStack().env['CHAT_VERIFY_TOKEN']!;

  it('echoes the challenge of a subscription handshake with the verify token, as text/plain', async () => {
    const response = await fetch(`${gateway()}/webhooks/chat?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(verifyToken())}&hub.challenge=98765`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toBe('98765');
  });

  it('refuses a handshake with another verify token: 403', async () => {
    const response = await fetch(`${gateway()}/webhooks/chat?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=98765`);
    expect(response.status).toBe(403);
  });

  it('refuses a delivery signed with another secret: 401 INVALID_WEBHOOK_SIGNATURE', async () => {
    const request = signedWebhookRequest(inboundTextWebhook({ phone_number_id: 'pn-none', from: '5215500000000', text: 'hi' }), 'not-the-app-secret');
    const response = await fetch(`${gateway()}/webhooks/chat`, { method: 'POST', headers: request.headers, body: request.body });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ code: 'INVALID_WEBHOOK_SIGNATURE', message: expect.any(String) });
  });

  // No signature, and a signed delivery acknowledged: apps/gateway/src/webhooks/chat-webhook.routes.spec.ts;
  // every inbound spec delivers signed webhooks with the stack's secret.
});
