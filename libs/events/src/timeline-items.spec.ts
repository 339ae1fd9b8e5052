import { customerAuthor } from './message-author';
import { type MessageItemSource, messageTimelineItem, noteTimelineItem, publicMessageStatus } from './timeline-items';

const at = new Date('2026-01-02T03:04:05.006Z');
const token = { type: 'api_token', uuid: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', name: null };
const outbound: MessageItemSource = { _id: 'm1', is_from_customer: false, body: 'Hola', content_type: 'text', status: 'sent', created_at: at };

describe('messageTimelineItem', () => {
  it('is the timeline item of CONTRACT 9.1: an outbound text without media, its error null', () => {
    expect(messageTimelineItem({ ...outbound, error: null }, token)).toEqual({
      uuid: 'm1',
      kind: 'message',
      created_at: '2026-01-02T03:04:05.006Z',
      author: token,
      direction: 'outbound',
      content_type: 'text',
      body: 'Hola',
      media: null,
      status: 'sent',
      error: null,
      pricing: null,
    });
  });

  it.each([
    ['sending', 'queued'],
    ['simulated', 'sent'],
    ['sent', 'sent'],
    ['delivered', 'delivered'],
    ['read', 'read'],
    ['failed', 'failed'],
  ])('shows an outbound message stored %s as %s', (stored, shown) => {
    expect(messageTimelineItem({ ...outbound, status: stored }, token).status).toBe(shown);
    expect(publicMessageStatus({ is_from_customer: false, status: stored })).toBe(shown);
  });

  it('gives only a failed send an error: the stored one, SEND_FAILED for a code the catalog does not know, the catalog text when none is stored', () => {
    const stored = { code: 'WINDOW_CLOSED', message: 'closed' };
    expect(messageTimelineItem({ ...outbound, status: 'failed', error: stored }, token).error).toEqual({ ...stored, provider_code: null });
    expect(messageTimelineItem({ ...outbound, status: 'failed', error: { code: 'TOKEN_EXPIRED_UPSTREAM', message: 'no' } }, token).error).toEqual({ code: 'SEND_FAILED', message: 'no', provider_code: null });
    expect(messageTimelineItem({ ...outbound, status: 'failed' }, token).error).toEqual({ code: 'SEND_FAILED', message: 'Sending to the chat channel failed.', provider_code: null });
    expect(messageTimelineItem({ ...outbound, status: 'failed', error: { code: 'WINDOW_CLOSED', message: '' } }, token).error!.message.length).toBeGreaterThan(0);
    expect(messageTimelineItem({ ...outbound, status: 'delivered', error: stored }, token).error).toBeNull();
  });

  it('keeps the chat platform\'s code of a failed send as provider_code (CONTRACT 10.3)', () => {
    const stored = { code: 'RECIPIENT_UNDELIVERABLE', message: 'undeliverable', provider_code: '131026' };
    expect(messageTimelineItem({ ...outbound, status: 'failed', error: stored }, token).error).toEqual(stored);
  });

  it('shows an outbound message\'s pricing once a status carried it, null before and on inbound messages', () => {
    const pricing = { billable: true, pricing_model: 'PMP', category: 'utility' };
    expect(messageTimelineItem({ ...outbound, status: 'delivered', pricing }, token).pricing).toEqual({ category: 'utility', billable: true, pricing_model: 'PMP' });
    expect(messageTimelineItem({ ...outbound, pricing: null }, token).pricing).toBeNull();
    expect(messageTimelineItem({ ...outbound, is_from_customer: true, status: 'received', pricing }, token).pricing).toBeNull();
  });

  it('shows an inbound message as the customer’s, received, with its media and transcription, and an empty caption as no body', () => {
    const author = customerAuthor('c1', 'Ana');
    const item = messageTimelineItem(
      { _id: 'm2', is_from_customer: true, body: '', content_type: 'image', status: 'received', created_at: at, media: { file_uuid: 'f1', mime_type: 'image/jpeg' }, transcription: 'a cat' },
      author,
    );
    expect(item).toMatchObject({
      direction: 'inbound',
      body: null,
      media: { file_uuid: 'f1', mime_type: 'image/jpeg', transcription: 'a cat' },
      status: 'received',
      error: null,
      author: { type: 'customer', uuid: 'c1', name: 'Ana' },
    });
  });

  it('shows inbound media not stored yet and not transcribed with nulls', () => {
    const item = messageTimelineItem({ _id: 'm4', is_from_customer: true, content_type: 'audio', status: 'received', created_at: at, media: { file_uuid: null, mime_type: 'audio/ogg' }, transcription: null }, customerAuthor('c1', null));
    expect(item.media).toEqual({ file_uuid: null, mime_type: 'audio/ogg', transcription: null });
    expect(item.body).toBeNull();
  });

  it('shows an outbound media with the upload it sent, with or without a transcription', () => {
    const image = { ...outbound, body: 'caption', content_type: 'image', outbound_file: { file_uuid: 'f2', mime_type: 'image/png' } };
    expect(messageTimelineItem({ ...image, transcription: 'a logo' }, token).media).toEqual({ file_uuid: 'f2', mime_type: 'image/png', transcription: 'a logo' });
    expect(messageTimelineItem(image, token).media).toEqual({ file_uuid: 'f2', mime_type: 'image/png', transcription: null });
  });
});

describe('noteTimelineItem', () => {
  it('is the timeline item of a note: its text and author', () => {
    expect(noteTimelineItem({ id: 'n1', body: 'Call later', createdAt: at }, token)).toEqual({ uuid: 'n1', kind: 'note', created_at: '2026-01-02T03:04:05.006Z', author: token, note: 'Call later' });
  });
});
