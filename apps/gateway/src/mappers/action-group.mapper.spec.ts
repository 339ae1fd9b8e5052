import { toActionGroupView, toSubmitActionGroupResponse } from './action-group.mapper';

describe('action group mappers', () => {
  it('maps the acceptance', () => {
    expect(
      toSubmitActionGroupResponse({ conversation: { uuid: 'c1' }, status: 'processing', actions_accepted: 3, action_group: { uuid: 'g1' } }),
    ).toEqual({ conversation: { uuid: 'c1' }, status: 'processing', actions_accepted: 3, action_group: { uuid: 'g1' } });
  });

  it('maps a group: absent error and times are null', () => {
    expect(
      toActionGroupView({
        uuid: 'g1',
        status: 'failed',
        escalated: true,
        conversation: { uuid: 'c1' },
        created_at: '2026-01-01T00:00:00.000Z',
        finished_at: '2026-01-01T00:00:02.000Z',
        actions: [
          { index: 0, type: 'send_message', status: 'failed', error: { code: 'SEND_FAILED', message: 'down' }, started_at: '2026-01-01T00:00:01.000Z', finished_at: '2026-01-01T00:00:02.000Z' },
          { index: 1, type: 'mark_pending', status: 'skipped', error: undefined },
        ],
      }),
    ).toEqual({
      uuid: 'g1',
      conversation: { uuid: 'c1' },
      status: 'failed',
      escalated: true,
      created_at: '2026-01-01T00:00:00.000Z',
      finished_at: '2026-01-01T00:00:02.000Z',
      actions: [
        { index: 0, type: 'send_message', status: 'failed', error: { code: 'SEND_FAILED', message: 'down' }, started_at: '2026-01-01T00:00:01.000Z', finished_at: '2026-01-01T00:00:02.000Z' },
        { index: 1, type: 'mark_pending', status: 'skipped', error: null, started_at: null, finished_at: null },
      ],
    });
  });

  it('treats an unknown status or type from upstream as a bug', () => {
    const group = { uuid: 'g1', status: 'exploded', escalated: false, conversation: { uuid: 'c1' }, created_at: 'x', actions: [] };
    expect(() => toActionGroupView(group)).toThrow('status');
  });
});
