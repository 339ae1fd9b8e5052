import { deriveConversationState, type MessageFacts } from './conversation-derived-state';

const CREATED = new Date('2025-01-01T00:00:00Z');
let sequence = 0;
function message(minute: number, isFromCustomer: boolean, extra: Partial<MessageFacts> = {}): MessageFacts {
  sequence += 1;
  return {
    _id: `m${String(sequence).padStart(3, '0')}`,
    is_from_customer: isFromCustomer,
    body: `at ${minute}`,
    content_type: 'text',
    media_transcription_pending: false,
    created_at: new Date(CREATED.getTime() + minute * 60_000),
    ...extra,
  };
}

describe('deriveConversationState', () => {
  it('sorts an empty conversation by its creation time', () => {
    expect(deriveConversationState([], CREATED)).toEqual({ last_message: null, last_inbound_at: null, unread_count: 0, media_awaiting_transcription: 0, awaiting_media_message_ids: [], sort_at: CREATED });
  });

  it('counts customer messages after the newest reply, whatever the input order', () => {
    const messages = [message(5, true), message(1, true), message(3, false), message(4, true, { media_transcription_pending: true, content_type: 'audio' })];
    const state = deriveConversationState(messages, CREATED);
    expect(state.unread_count).toBe(2);
    expect(state.media_awaiting_transcription).toBe(1);
    expect(state.awaiting_media_message_ids).toEqual([messages[3]._id]);
    expect(state.last_inbound_at).toEqual(messages[0].created_at);
    expect(state.sort_at).toEqual(messages[0].created_at);
    expect(state.last_message).toEqual({ uuid: messages[0]._id, body: 'at 5', content_type: 'text', is_from_customer: true, created_at: messages[0].created_at });
  });

  it('has nothing unread after a reply and keeps the last inbound time', () => {
    const inbound = message(1, true);
    const state = deriveConversationState([message(2, false), inbound], CREATED);
    expect(state.unread_count).toBe(0);
    expect(state.last_inbound_at).toEqual(inbound.created_at);
    expect(state.last_message?.is_from_customer).toBe(false);
  });

  it('breaks equal times by uuid', () => {
    const first = message(1, true, { _id: 'b' });
    const second = message(1, false, { _id: 'a' });
    expect(deriveConversationState([first, second], CREATED).last_message?.uuid).toBe('b');
  });
});
