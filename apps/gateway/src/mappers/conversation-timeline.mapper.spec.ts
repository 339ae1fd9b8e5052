import { ConversationTimelineResponseSchema } from '@cmsg/api-schemas';
import type { ConversationTimelineItem } from '@cmsg/proto';
import { toConversationTimelineResponse, toTimelineItem } from './conversation-timeline.mapper';

const base = { uuid: '11111111-2222-4333-8444-555555555555', created_at: '2025-01-31T10:00:00.000Z' };
const customer = { type: 'customer', uuid: '22222222-2222-4333-8444-555555555555', name: 'Ana' };

const failedSend: ConversationTimelineItem = {
  ...base,
  kind: 'message',
  author: { type: 'ai_employee', uuid: '33333333-2222-4333-8444-555555555555', name: 'Ava' },
  message: { direction: 'outbound', content_type: 'text', body: 'Hola', media: undefined, status: 'failed', error: { code: 'SEND_FAILED', message: 'provider said no' }, pricing: undefined },
};
const inboundImage: ConversationTimelineItem = {
  ...base,
  kind: 'message',
  author: customer,
  message: { direction: 'inbound', content_type: 'image', body: undefined, media: { file_uuid: undefined, mime_type: 'image/png', transcription: 'A receipt.' }, status: 'received', error: undefined, pricing: undefined },
};
const statusEvent: ConversationTimelineItem = {
  ...base,
  kind: 'event',
  author: { type: 'system', uuid: undefined, name: undefined },
  event: { event: 'inbox_status_changed', data: { from: 'resolved', to: 'pending', reason: 'action_set_failed' } },
};

describe('toTimelineItem', () => {
  it('maps messages with their media, status and error, absent fields as null', () => {
    expect(toTimelineItem(failedSend)).toEqual({
      ...base,
      kind: 'message',
      author: failedSend.author,
      direction: 'outbound',
      content_type: 'text',
      body: 'Hola',
      media: null,
      status: 'failed',
      error: { code: 'SEND_FAILED', message: 'provider said no', provider_code: null },
      pricing: null,
    });
    expect(toTimelineItem(inboundImage)).toMatchObject({ author: customer, body: null, media: { file_uuid: null, mime_type: 'image/png', transcription: 'A receipt.' }, status: 'received', error: null });
  });

  it('maps a provider outcome\'s provider_code and a delivered message\'s pricing (CONTRACT 10.3)', () => {
    const refused = toTimelineItem({ ...failedSend, message: { ...failedSend.message!, error: { code: 'RECIPIENT_UNDELIVERABLE', message: 'undeliverable', provider_code: '131026' } } });
    expect(refused).toMatchObject({ error: { code: 'RECIPIENT_UNDELIVERABLE', message: 'undeliverable', provider_code: '131026' }, pricing: null });
    const delivered = toTimelineItem({ ...failedSend, message: { ...failedSend.message!, status: 'delivered', error: undefined, pricing: { category: 'utility', billable: true, pricing_model: undefined } } });
    expect(delivered).toMatchObject({ error: null, pricing: { category: 'utility', billable: true, pricing_model: null } });
    expect(ConversationTimelineResponseSchema.safeParse({ items: [refused, delivered], has_more: false, next_cursor: '' }).success).toBe(true);
  });

  it('maps events with their data, and the page', () => {
    const page = toConversationTimelineResponse({ items: [failedSend, inboundImage, statusEvent], next_cursor: '', has_more: false });
    expect(page.items[2]).toEqual({ ...base, kind: 'event', author: { type: 'system', uuid: null, name: null }, event: 'inbox_status_changed', data: statusEvent.event!.data });
    expect(ConversationTimelineResponseSchema.safeParse(page).success).toBe(true);
  });

  it.each([
    ['an unknown kind', { ...statusEvent, kind: 'reaction' }],
    ['an unknown author type', { ...failedSend, author: { type: 'robot', uuid: undefined, name: undefined } }],
    ['an unknown status', { ...failedSend, message: { ...failedSend.message!, status: 'bounced' } }],
    ['an unknown event', { ...statusEvent, event: { event: 'exploded', data: {} } }],
    ['event data off its schema', { ...statusEvent, event: { event: 'inbox_status_changed', data: { from: 'open' } } }],
    ['a message without its detail', { ...failedSend, message: undefined }],
  ])('refuses %s (an upstream bug, answered 500)', (_case, item) => {
    expect(() => toTimelineItem(item as ConversationTimelineItem)).toThrow();
  });
});
