import type { MessageEntity, StoredTimelineEvent } from '@cmsg/dal';
import { type TimelineAuthorNames, messageItemOf, timelineEventItemOf } from './timeline-items';

const names: TimelineAuthorNames = { customer: { uuid: 'contact-1', name: 'Ana' }, aiEmployee: (uuid) => (uuid === 'ai-1' ? 'Ava' : undefined) };
const at = new Date('2025-01-31T10:00:00.000Z');
const message = (fields: Partial<MessageEntity>) => ({ _id: 'm1', conversation_id: 'c1', is_from_customer: false, body: '', content_type: 'text', status: 'sent', created_at: at, ...fields }) as MessageEntity;
const entry = (fields: Partial<StoredTimelineEvent>) => ({ _id: 'e1', conversation_id: 'c1', kind: 'note', body: null, data: null, author: { type: 'system', uuid: null }, created_at: at, ...fields }) as StoredTimelineEvent;

describe('messageItemOf', () => {
  it('shows an inbound message as the customer’s, received, with its media and transcription', () => {
    const item = messageItemOf(
      message({ is_from_customer: true, status: 'received', content_type: 'audio', media: { provider_media_id: 'p', mime_type: 'audio/ogg', file_uuid: null, transcription_status: 'pending' } as MessageEntity['media'], transcription: null }),
      names,
    );
    expect(item).toEqual({
      uuid: 'm1',
      kind: 'message',
      created_at: at.toISOString(),
      author: { type: 'customer', uuid: 'contact-1', name: 'Ana' },
      message: { direction: 'inbound', content_type: 'audio', body: undefined, media: { file_uuid: undefined, mime_type: 'audio/ogg', transcription: undefined }, status: 'received', error: undefined },
    });
  });

  it.each([
    ['sending', 'queued'],
    ['sent', 'sent'],
    ['simulated', 'sent'],
    ['delivered', 'delivered'],
    ['read', 'read'],
  ])('shows an outbound message stored %s as %s', (stored, shown) => {
    expect(messageItemOf(message({ status: stored, author: { type: 'api_token', uuid: 't1' } }), names).message!.status).toBe(shown);
  });

  it('gives a failed send its error (SEND_FAILED for a code the catalog does not know) and an AI employee its name', () => {
    const failed = messageItemOf(message({ status: 'failed', author: { type: 'ai_employee', uuid: 'ai-1' }, error: { code: 'TOKEN_EXPIRED_UPSTREAM', message: 'no' } }), names);
    expect(failed.author).toEqual({ type: 'ai_employee', uuid: 'ai-1', name: 'Ava' });
    expect(failed.message!.error).toEqual({ code: 'SEND_FAILED', message: 'no' });
    expect(messageItemOf(message({ status: 'failed', error: { code: 'WINDOW_CLOSED', message: 'closed' } }), names).message!.error).toEqual({ code: 'WINDOW_CLOSED', message: 'closed' });
  });

  it('shows the upload an outbound media sent, and an author without a record as the system', () => {
    const item = messageItemOf(message({ content_type: 'image', body: 'cover', outbound_file: { file_uuid: 'f1', mime_type: 'image/jpeg' }, transcription: 'A cover.', author: null }), names);
    expect(item.message!.media).toEqual({ file_uuid: 'f1', mime_type: 'image/jpeg', transcription: 'A cover.' });
    expect(item.author).toEqual({ type: 'system', uuid: undefined, name: undefined });
  });
});

describe('timelineEventItemOf', () => {
  it('shows a note with its text and author', () => {
    expect(timelineEventItemOf(entry({ body: 'Call later', author: { type: 'api_token', uuid: 't1' } }), names)).toEqual({
      uuid: 'e1',
      created_at: at.toISOString(),
      author: { type: 'api_token', uuid: 't1', name: undefined },
      kind: 'note',
      note: { note: 'Call later' },
    });
  });

  it('shows an event with its type and data, and the name stored with its author', () => {
    const data = { from: null, to: { type: 'mailbox', uuid: 'm', name: 'Sales' } };
    const item = timelineEventItemOf(entry({ kind: 'event', event_type: 'mailbox_changed', data, author: { type: 'human', uuid: null, name: 'Team' } }), names);
    expect(item).toMatchObject({ kind: 'event', author: { type: 'human', name: 'Team' }, event: { event: 'mailbox_changed', data } });
  });

  it('reads an inbox status change stored before events existed as an event, pending_reason as reason', () => {
    const legacy = entry({ kind: 'inbox_status_changed', data: { from: 'resolved', to: 'pending', pending_reason: 'human_handoff' } });
    expect(timelineEventItemOf(legacy, names).event).toEqual({ event: 'inbox_status_changed', data: { from: 'resolved', to: 'pending', reason: 'human_handoff' } });
    const resolved = entry({ kind: 'inbox_status_changed', data: { from: 'pending', to: 'resolved', pending_reason: null } });
    expect(timelineEventItemOf(resolved, names).event!.data).toEqual({ from: 'pending', to: 'resolved', reason: null });
  });
});
