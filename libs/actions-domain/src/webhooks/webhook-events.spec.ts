import type { ActionGroupEntity } from '@cmsg/dal';
import { actionFailedEvent, actionGroupFinishedEvent, deterministicUuid } from './webhook-events';

const group: ActionGroupEntity = {
  _id: '0b8a7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d',
  business_id: 'b1',
  conversation_id: '11111111-1111-4111-8111-111111111111',
  token_uuid: 't1',
  request_id: null,
  source: 'action_group',
  depth: 0,
  stop_on_error: true,
  escalate_on_error: true,
  status: 'failed',
  escalated: true,
  actions: [
    { index: 0, type: 'assign_label', params: {}, status: 'succeeded', error: null, started_at: null, finished_at: null },
    { index: 1, type: 'send_message', params: {}, status: 'failed', error: { code: 'SEND_FAILED', message: 'down' }, started_at: null, finished_at: null },
    { index: 2, type: 'mark_pending', params: {}, status: 'skipped', error: null, started_at: null, finished_at: null },
  ],
  created_at: new Date('2026-01-01T00:00:00Z'),
  started_at: new Date('2026-01-01T00:00:01Z'),
  finished_at: new Date('2026-01-01T00:00:02Z'),
};

describe('webhook events', () => {
  it('derive stable UUID-shaped ids from their parts', () => {
    const id = deterministicUuid('a', 'b');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(deterministicUuid('a', 'b')).toBe(id);
    expect(deterministicUuid('ab')).not.toBe(id);
  });

  it('action.failed names the group, the conversation and the failed action; same id on every run', () => {
    const event = actionFailedEvent(group, 1, new Date('2026-01-01T00:00:03Z'));
    expect(event).toEqual({
      id: deterministicUuid(group._id, 'action.failed', '1'),
      type: 'action.failed',
      created_at: '2026-01-01T00:00:03.000Z',
      data: {
        action_group: { uuid: group._id },
        conversation: { uuid: group.conversation_id },
        action: { index: 1, type: 'send_message', error: { code: 'SEND_FAILED', message: 'down' } },
      },
    });
    expect(actionFailedEvent(group, 1, new Date()).id).toBe(event.id);
    expect(actionFailedEvent(group, 0, new Date()).id).not.toBe(event.id);
  });

  it('action_group.finished carries the final group', () => {
    const event = actionGroupFinishedEvent(group, group.finished_at!);
    expect(event.type).toBe('action_group.finished');
    expect(event.data).toEqual({
      action_group: {
        uuid: group._id,
        status: 'failed',
        escalated: true,
        actions: [
          { index: 0, type: 'assign_label', status: 'succeeded', error: null },
          { index: 1, type: 'send_message', status: 'failed', error: { code: 'SEND_FAILED', message: 'down' } },
          { index: 2, type: 'mark_pending', status: 'skipped', error: null },
        ],
        created_at: '2026-01-01T00:00:00.000Z',
        finished_at: '2026-01-01T00:00:02.000Z',
      },
      conversation: { uuid: group.conversation_id },
    });
  });
});
