import { inboundEventsOf, verifyWebhookSignature, webhookPayloadSchema } from '@cmsg/chat-platform';
import {
  inboundButtonReplyWebhook,
  inboundMediaWebhook,
  inboundTextWebhook,
  signedWebhookRequest,
  statusWebhook,
  userPreferencesWebhook,
  webhookTimestamp,
} from './webhook-builders';

const channel = { phone_number_id: '106540352242922', display_phone_number: '15550783881' };

describe('webhook builders', () => {
  it('sign the exact body bytes so the product verifies them', () => {
    const payload = inboundTextWebhook({ ...channel, from: '16505551234', text: 'Hola' });
    const request = signedWebhookRequest(payload, 'app-secret');
    expect(request.headers['x-hub-signature-256']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(Buffer.from(request.body), request.headers['x-hub-signature-256'], 'app-secret')).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(request.body), request.headers['x-hub-signature-256'], 'other')).toBe(false);
  });

  it('build a text message the product schema accepts, from a phone or from a BSUID only', () => {
    const at = new Date('2026-01-02T03:04:05Z');
    const byPhone = inboundEventsOf(webhookPayloadSchema.parse(inboundTextWebhook({ ...channel, from: '16505551234', name: 'Sheena', text: 'Hola', id: 'wamid.1', timestamp: at })));
    expect(byPhone).toEqual([
      {
        kind: 'message',
        phone_number_id: channel.phone_number_id,
        sender: { wa_id: '16505551234', profile_name: 'Sheena' },
        message: { from: '16505551234', id: 'wamid.1', timestamp: webhookTimestamp(at), type: 'text', text: { body: 'Hola' } },
        sent_at: at,
      },
    ]);

    const [byUserId] = inboundEventsOf(webhookPayloadSchema.parse(inboundTextWebhook({ ...channel, from_user_id: 'US.99', username: 'uma.k', text: 'hey' })));
    expect(byUserId).toMatchObject({ sender: { user_id: 'US.99', username: 'uma.k' } });
    expect(byUserId?.kind === 'message' && byUserId.message.from).toBeUndefined();
  });

  it('build media, button replies and statuses the product schema accepts', () => {
    const media = webhookPayloadSchema.parse(
      inboundMediaWebhook({ ...channel, from: '1555', media_type: 'audio', media: { id: '42', mime_type: 'audio/ogg; codecs=opus', sha256: 'h', voice: true } }),
    );
    expect(inboundEventsOf(media)[0]).toMatchObject({ message: { type: 'audio', audio: { id: '42', mime_type: 'audio/ogg; codecs=opus', voice: true } } });

    const reply = webhookPayloadSchema.parse(inboundButtonReplyWebhook({ ...channel, from: '1555', button: { id: 'yes', title: 'Yes' }, context_id: 'wamid.OUT' }));
    expect(inboundEventsOf(reply)[0]).toMatchObject({ message: { interactive: { button_reply: { id: 'yes' } }, context: { id: 'wamid.OUT' } } });

    const status = webhookPayloadSchema.parse(
      statusWebhook({ ...channel, message_id: 'wamid.OUT', status: 'failed', recipient_id: '1555', errors: [{ code: 131047, title: 'Re-engagement message' }] }),
    );
    expect(inboundEventsOf(status)).toEqual([
      expect.objectContaining({ kind: 'status', status: expect.objectContaining({ id: 'wamid.OUT', status: 'failed', errors: [{ code: 131047, title: 'Re-engagement message' }] }) }),
    ]);
  });

  it('build a status with the pricing the product keeps', () => {
    const pricing = { billable: true, pricing_model: 'PMP', category: 'utility' };
    const status = webhookPayloadSchema.parse(statusWebhook({ ...channel, message_id: 'wamid.OUT', status: 'delivered', recipient_id: '1555', pricing }));
    expect(inboundEventsOf(status)).toEqual([expect.objectContaining({ kind: 'status', status: expect.objectContaining({ status: 'delivered', pricing }) })]);
  });

  it('refuse a message without any sender', () => {
    expect(() => inboundTextWebhook({ ...channel, text: 'x' })).toThrow('from or from_user_id');
  });
});

describe('userPreferencesWebhook', () => {
  it('builds a user_preferences change the product parses into one preference on the channel', () => {
    const payload = webhookPayloadSchema.parse(userPreferencesWebhook({ ...channel, wa_id: '16505551234', value: 'stop', timestamp: 1731705721 }));
    expect(inboundEventsOf(payload)).toEqual([
      {
        kind: 'user_preference',
        phone_number_id: channel.phone_number_id,
        preference: { wa_id: '16505551234', detail: 'User requested to stop marketing messages', category: 'marketing_messages', value: 'stop', timestamp: '1731705721' },
      },
    ]);
  });
});
