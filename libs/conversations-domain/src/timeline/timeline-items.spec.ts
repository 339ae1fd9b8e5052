import type { MessageEntity, StoredTimelineEvent } from '@cmsg/dal';
import { type TimelineAuthorNames, timelineItemOf } from './timeline-items';

const names: TimelineAuthorNames = { customer: { uuid: 'contact-1', name: 'Ana' }, aiEmployee: (uuid) => (uuid === 'ai-1' ? 'Ava' : undefined) };
const at = new Date('2025-01-31T10:00:00.000Z');
const message = (fields: Partial<MessageEntity>) => ({ _id: 'm1', conversation_id: 'c1', is_from_customer: false, body: '', content_type: 'text', status: 'sent', created_at: at, ...fields }) as MessageEntity;
const entry = (fields: Partial<StoredTimelineEvent>) => ({ _id: 'e1', conversation_id: 'c1', kind: 'note', body: null, data: null, author: { type: 'system', uuid: null }, created_at: at, ...fields }) as StoredTimelineEvent;
const messageItem = (fields: Partial<MessageEntity>) => timelineItemOf({ source: 'message', row: message(fields) }, names);
const rowItem = (fields: Partial<StoredTimelineEvent>) => timelineItemOf({ source: 'timeline_event', row: entry(fields) }, names);

// The items' fields are @cmsg/events' builders' (timeline-items.spec.ts there); these check the
// authors the timeline names and the reply's shape (a null as an absent field).
describe('timelineItemOf a message', () => {
  it('shows an inbound message as the customer’s, received, with its media and transcription', () => {
    const media = { provider_media_id: 'p', mime_type: 'audio/ogg', file_uuid: null, transcription_status: 'pending' } as MessageEntity['media'];
    expect(messageItem({ is_from_customer: true, status: 'received', content_type: 'audio', media, transcription: null })).toEqual({
      uuid: 'm1',
      kind: 'message',
      created_at: at.toISOString(),
      author: { type: 'customer', uuid: 'contact-1', name: 'Ana' },
      message: { direction: 'inbound', content_type: 'audio', body: undefined, media: { file_uuid: undefined, mime_type: 'audio/ogg', transcription: undefined }, status: 'received', error: undefined },
    });
  });

  it('shows an outbound message’s status and failure, and an AI employee by its name', () => {
    expect(messageItem({ status: 'sending', author: { type: 'api_token', uuid: 't1' } })).toMatchObject({ author: { type: 'api_token', uuid: 't1', name: undefined }, message: { status: 'queued', error: undefined } });
    const failed = messageItem({ status: 'failed', author: { type: 'ai_employee', uuid: 'ai-1' }, error: { code: 'TOKEN_EXPIRED_UPSTREAM', message: 'no' } });
    expect(failed.author).toEqual({ type: 'ai_employee', uuid: 'ai-1', name: 'Ava' });
    expect(failed.message!.error).toEqual({ code: 'SEND_FAILED', message: 'no' });
  });

  it('shows the upload an outbound media sent, and an author without a record as the system', () => {
    const item = messageItem({ content_type: 'image', body: 'cover', outbound_file: { file_uuid: 'f1', mime_type: 'image/jpeg' }, transcription: 'A cover.', author: null });
    expect(item.message).toMatchObject({ body: 'cover', media: { file_uuid: 'f1', mime_type: 'image/jpeg', transcription: 'A cover.' } });
    expect(item.author).toEqual({ type: 'system', uuid: undefined, name: undefined });
  });
});

describe('timelineItemOf a timeline row', () => {
  it('shows a note with its text and author', () => {
    expect(rowItem({ body: 'Call later', author: { type: 'api_token', uuid: 't1' } })).toEqual({
      uuid: 'e1',
      created_at: at.toISOString(),
      author: { type: 'api_token', uuid: 't1', name: undefined },
      kind: 'note',
      note: { note: 'Call later' },
    });
  });

  it('shows an event with its type and data, and the name stored with its author', () => {
    const data = { from: null, to: { type: 'mailbox', uuid: 'm', name: 'Sales' } };
    expect(rowItem({ kind: 'event', event_type: 'mailbox_changed', data, author: { type: 'human', uuid: null, name: 'Team' } })).toEqual({
      uuid: 'e1',
      kind: 'event',
      created_at: at.toISOString(),
      author: { type: 'human', uuid: undefined, name: 'Team' },
      event: { event: 'mailbox_changed', data },
    });
  });

  it('reads an inbox status change stored before events existed as an event, pending_reason as reason', () => {
    expect(rowItem({ kind: 'inbox_status_changed', data: { from: 'resolved', to: 'pending', pending_reason: 'human_handoff' } }).event).toEqual({
      event: 'inbox_status_changed',
      data: { from: 'resolved', to: 'pending', reason: 'human_handoff' },
    });
    expect(rowItem({ kind: 'inbox_status_changed', data: { from: 'pending', to: 'resolved', pending_reason: null } }).event!.data).toEqual({ from: 'pending', to: 'resolved', reason: null });
  });
});
