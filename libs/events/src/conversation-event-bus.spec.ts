import type { OutboxEntry } from '@cmsg/dal';
import { conversationEventMessageOf } from './conversation-event-bus';

const at = new Date('2026-01-02T03:04:05.006Z');
const entry = (type: string, data: Record<string, unknown>): OutboxEntry => ({
  id: 'e1',
  type,
  conversation_id: 'c1',
  data,
  author: { type: 'api_token', uuid: 't1', name: null },
  created_at: at,
});

/** The conversation-events topic keeps the messages its consumers read, in the form they had before events. */
describe('conversationEventMessageOf', () => {
  const common = { business_id: 'b1', conversation_uuid: 'c1', actor: { type: 'api_token', uuid: 't1' }, occurred_at: at.toISOString() };

  it('announces a customer message as conversation.customer_message_received', () => {
    const message = conversationEventMessageOf(entry('message.received', { uuid: 'm1', content_type: 'text', created_at: '2026-01-02T03:00:00.000Z' }), 'b1');
    expect(message).toEqual({
      id: 'e1',
      type: 'conversation.customer_message_received',
      created_at: at.toISOString(),
      data: { business_id: 'b1', conversation_uuid: 'c1', message_uuid: 'm1', content_type: 'text', sent_at: '2026-01-02T03:00:00.000Z' },
    });
  });

  it('gives the changes of owner, mailbox, status and tags their former payloads (ids, pending_reason, actor)', () => {
    const ana = { type: 'ai_employee', uuid: 'ai1', name: 'Ana' };
    expect(conversationEventMessageOf(entry('conversation.assignment_changed', { from: ana, to: { type: 'human', uuid: null, name: null } }), 'b1')!.data).toEqual({ ...common, from: 'ai1', to: null });
    expect(conversationEventMessageOf(entry('conversation.mailbox_changed', { from: null, to: { type: 'mailbox', uuid: 'mb1', name: 'North' } }), 'b1')!.data).toEqual({ ...common, from: null, to: 'mb1' });
    expect(conversationEventMessageOf(entry('conversation.inbox_status_changed', { from: 'resolved', to: 'pending', reason: 'human_handoff' }), 'b1')!.data).toEqual({
      ...common,
      from: 'resolved',
      to: 'pending',
      pending_reason: 'human_handoff',
    });
    expect(conversationEventMessageOf(entry('conversation.tags_changed', { added: ['t1'], removed: [] }), 'b1')!.data).toEqual({ ...common, added: ['t1'], removed: [] });
  });

  it('publishes no other type', () => {
    for (const type of ['message.sent', 'note.created', 'scheduled_message.cancelled', 'action_group.finished', 'conversation.created']) {
      expect(conversationEventMessageOf(entry(type, {}), 'b1')).toBeNull();
    }
  });
});
