import { EVENT_ENVELOPES, EVENT_TYPES, EventEnvelopeSchema, componentNameOf } from './event-envelope.schema';
import { EVENT_EXAMPLES } from './event-examples';

describe('the public event envelopes', () => {
  it('has the 15 types of CONTRACT 9.2, the 4 contact types of 10.1 and the 3 broadcast types of 10.4', () => {
    expect([...EVENT_TYPES].sort()).toEqual(
      [
        'message.received',
        'message.sent',
        'message.status_updated',
        'conversation.created',
        'conversation.inbox_status_changed',
        'conversation.assignment_changed',
        'conversation.tags_changed',
        'conversation.mailbox_changed',
        'note.created',
        'scheduled_message.sent',
        'scheduled_message.failed',
        'scheduled_message.cancelled',
        'action.failed',
        'action_group.finished',
        'ping',
        'contact.created',
        'contact.updated',
        'contact.consent_changed',
        'contact.erased',
        'broadcast.started',
        'broadcast.paused',
        'broadcast.completed',
      ].sort(),
    );
  });

  it.each(EVENT_TYPES.map((type) => [type]))('%s: its example is a valid envelope of that type', (type) => {
    const example = EVENT_EXAMPLES[type];
    expect(example.type).toBe(type);
    expect(EVENT_ENVELOPES[type].safeParse(example).success).toBe(true);
    const parsed = EventEnvelopeSchema.safeParse(example);
    expect(parsed.success && parsed.data.type).toBe(type);
  });

  it('makes a message event carry the timeline item of the message (uuid = message uuid)', () => {
    const event = EVENT_EXAMPLES['message.received'];
    expect(event.data).toMatchObject({ kind: 'message', direction: 'inbound', status: 'received' });
    expect(EVENT_ENVELOPES['message.received'].safeParse({ ...event, data: { ...event.data, kind: 'note' } }).success).toBe(false);
  });

  it('sends a ping with conversation null, sequence 0 and empty data, and nothing else as a ping', () => {
    const ping = EVENT_EXAMPLES.ping;
    expect(ping).toMatchObject({ conversation: null, sequence: 0, data: {} });
    expect(EVENT_ENVELOPES.ping.safeParse({ ...ping, sequence: 1 }).success).toBe(false);
    expect(EVENT_ENVELOPES.ping.safeParse({ ...ping, conversation: { uuid: '0b6d5c1e-8f3a-4c2d-9e7b-5a4f3e2d1c0b' } }).success).toBe(false);
  });

  it.each(['broadcast.started', 'broadcast.paused', 'broadcast.completed'] as const)('sends %s with conversation null, sequence 0, the broadcast, its counts and a reason', (type) => {
    const event = EVENT_EXAMPLES[type];
    expect(event).toMatchObject({ conversation: null, sequence: 0, data: { broadcast: { uuid: expect.any(String), name: expect.any(String) } } });
    expect(event.data.counts.total).toBe(Object.entries(event.data.counts).reduce((sum, [state, count]) => (state === 'total' ? sum : sum + count), 0));
    expect(EVENT_ENVELOPES[type].safeParse({ ...event, conversation: { uuid: '0b6d5c1e-8f3a-4c2d-9e7b-5a4f3e2d1c0b' } }).success).toBe(false);
    expect(EVENT_ENVELOPES[type].safeParse({ ...event, data: { ...event.data, reason: undefined } }).success).toBe(false);
  });

  it('refuses a conversation event without a conversation or with sequence 0', () => {
    const event = EVENT_EXAMPLES['conversation.tags_changed'];
    expect(EVENT_ENVELOPES['conversation.tags_changed'].safeParse({ ...event, conversation: null }).success).toBe(false);
    expect(EVENT_ENVELOPES['conversation.tags_changed'].safeParse({ ...event, sequence: 0 }).success).toBe(false);
  });

  it('names each component after its type', () => {
    expect(componentNameOf('conversation.inbox_status_changed')).toBe('ConversationInboxStatusChanged');
    expect(componentNameOf('ping')).toBe('Ping');
  });
});
