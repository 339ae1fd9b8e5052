import { customerAuthor, messageTimelineItem, publicMessageStatus } from './message-event-data';

const at = new Date('2026-01-02T03:04:05.006Z');
const token = { type: 'api_token', uuid: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', name: null };

describe('messageTimelineItem', () => {
  it('shows an outbound send as queued, sent, delivered, read or failed; a simulated one as sent', () => {
    const status = (value: string) => publicMessageStatus({ is_from_customer: false, status: value });
    expect(['sending', 'simulated', 'sent', 'delivered', 'read', 'failed'].map(status)).toEqual(['queued', 'sent', 'sent', 'delivered', 'read', 'failed']);
    expect(publicMessageStatus({ is_from_customer: true, status: 'received' })).toBe('received');
  });

  it('is the timeline item of CONTRACT 9.1, with the error null unless failed', () => {
    const base = { _id: 'm1', is_from_customer: false, body: 'Hola', content_type: 'text', created_at: at };
    expect(messageTimelineItem({ ...base, status: 'sent', error: null }, token)).toEqual({
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
    });
    expect(messageTimelineItem({ ...base, status: 'failed', error: { code: 'SEND_FAILED', message: 'down' } }, token)).toMatchObject({ status: 'failed', error: { code: 'SEND_FAILED', message: 'down' } });
    // A failure stored without its error still says why, generically.
    expect(messageTimelineItem({ ...base, status: 'failed' }, token)).toMatchObject({ error: { code: 'SEND_FAILED' } });
  });

  it('shows inbound media with its file and transcription, and an empty caption as no body', () => {
    const author = customerAuthor('c1', 'Ana');
    const item = messageTimelineItem(
      { _id: 'm2', is_from_customer: true, body: '', content_type: 'image', status: 'received', created_at: at, media: { file_uuid: 'f1', mime_type: 'image/jpeg' }, transcription: 'a cat' },
      author,
    );
    expect(item).toMatchObject({ direction: 'inbound', body: null, media: { file_uuid: 'f1', mime_type: 'image/jpeg', transcription: 'a cat' }, status: 'received', author: { type: 'customer', uuid: 'c1', name: 'Ana' } });
    expect(item['error']).toBeNull();
  });

  it('shows an outbound media with the upload it sent', () => {
    const item = messageTimelineItem(
      { _id: 'm3', is_from_customer: false, body: 'caption', content_type: 'image', status: 'sent', created_at: at, outbound_file: { file_uuid: 'f2', mime_type: 'image/png' }, transcription: 'a logo' },
      token,
    );
    expect(item['media']).toEqual({ file_uuid: 'f2', mime_type: 'image/png', transcription: 'a logo' });
  });
});
