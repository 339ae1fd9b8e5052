import type { WebhookMessage } from '@cmsg/chat-platform';
import { inboundContentOf } from './inbound-message-content';

const base = { from: '5215512345678', id: 'wamid.1', timestamp: '1700000000' };
const message = (fields: Partial<WebhookMessage> & { type: string }): WebhookMessage => ({ ...base, ...fields });

describe('inboundContentOf', () => {
  it('keeps a text as the body', () => {
    expect(inboundContentOf(message({ type: 'text', text: { body: 'Hola' } }))).toEqual({ content_type: 'text', body: 'Hola', media: null });
  });

  it('keeps media by reference, with its caption as the body', () => {
    expect(inboundContentOf(message({ type: 'image', image: { id: 'media-1', mime_type: 'image/jpeg', caption: 'my receipt' } }))).toEqual({
      content_type: 'image',
      body: 'my receipt',
      media: { provider_media_id: 'media-1', mime_type: 'image/jpeg', file_name: null, voice: false },
    });
    expect(inboundContentOf(message({ type: 'audio', audio: { id: 'media-2', mime_type: 'audio/ogg; codecs=opus', voice: true } })).media).toEqual({
      provider_media_id: 'media-2',
      mime_type: 'audio/ogg; codecs=opus',
      file_name: null,
      voice: true,
    });
    expect(inboundContentOf(message({ type: 'document', document: { id: 'media-3', mime_type: 'application/pdf', filename: 'invoice.pdf' } })).media?.file_name).toBe('invoice.pdf');
    expect(inboundContentOf(message({ type: 'sticker', sticker: { id: 'media-4', mime_type: 'image/webp' } })).content_type).toBe('sticker');
  });

  it('keeps the title of a tapped button', () => {
    expect(inboundContentOf(message({ type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'b1', title: 'Yes' } } }))).toEqual({
      content_type: 'interactive',
      body: 'Yes',
      media: null,
    });
    expect(inboundContentOf(message({ type: 'button', button: { text: 'Stop promotions' } })).body).toBe('Stop promotions');
  });

  it('keeps the type of anything else, with an empty body', () => {
    expect(inboundContentOf(message({ type: 'location' }))).toEqual({ content_type: 'location', body: '', media: null });
    expect(inboundContentOf(message({ type: 'image' }))).toEqual({ content_type: 'image', body: '', media: null });
  });
});
