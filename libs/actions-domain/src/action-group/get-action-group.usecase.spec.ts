import { type ActionGroupEntity, businessScope } from '@cmsg/dal';
import { InMemoryActionGroupStore } from '../testing/in-memory-action-group-store';
import { getActionGroup } from './get-action-group.usecase';

const GROUP = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const THEIRS = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const at = (second: number) => new Date(Date.UTC(2026, 10, 29, 10, 0, second));

function group(id: string, businessId: string, fields: Partial<ActionGroupEntity> = {}): ActionGroupEntity {
  return {
    _id: id,
    business_id: businessId,
    conversation_id: 'conv-1',
    token_uuid: 't1',
    request_id: 'req-1',
    source: 'action_group',
    depth: 0,
    stop_on_error: true,
    escalate_on_error: false,
    status: 'processing',
    escalated: false,
    actions: [
      { index: 0, type: 'assign_label', params: {}, status: 'failed', error: { code: 'TAG_NOT_FOUND', message: 'No tag vip.' }, started_at: at(1), finished_at: at(2) },
      { index: 1, type: 'run_ai', params: {}, status: 'running', error: null, started_at: at(2), finished_at: null },
      { index: 2, type: 'send_message', params: {}, status: 'pending', error: null, started_at: null, finished_at: null },
    ],
    created_at: at(0),
    started_at: at(1),
    finished_at: null,
    ...fields,
  } as ActionGroupEntity;
}

describe('getActionGroup', () => {
  let store: InMemoryActionGroupStore;

  beforeEach(async () => {
    store = new InMemoryActionGroupStore();
    await store.createIfMissing(group(GROUP, 'b1'));
    await store.createIfMissing(group(THEIRS, 'b2', { status: 'succeeded', finished_at: at(9) }));
  });

  it('answers the group in its public shape: an action under way is still pending to clients', async () => {
    await expect(getActionGroup(store, businessScope('b1'), GROUP)).resolves.toEqual({
      uuid: GROUP,
      status: 'processing',
      escalated: false,
      conversation: { uuid: 'conv-1' },
      actions: [
        { index: 0, type: 'assign_label', status: 'failed', error: { code: 'TAG_NOT_FOUND', message: 'No tag vip.' }, started_at: at(1).toISOString(), finished_at: at(2).toISOString() },
        { index: 1, type: 'run_ai', status: 'pending', error: undefined, started_at: at(2).toISOString(), finished_at: undefined },
        { index: 2, type: 'send_message', status: 'pending', error: undefined, started_at: undefined, finished_at: undefined },
      ],
      created_at: at(0).toISOString(),
      finished_at: undefined,
    });
  });

  it('finds the group by an upper-case uuid too', async () => {
    await expect(getActionGroup(store, businessScope('b1'), GROUP.toUpperCase())).resolves.toMatchObject({ uuid: GROUP });
  });

  it("answers ACTION_GROUP_NOT_FOUND for an unknown uuid, another business's group, and a string that is no uuid", async () => {
    const lookups: string[] = [];
    const find = store.find.bind(store);
    const recording = { find: (scope: Parameters<typeof find>[0], uuid: string) => (lookups.push(uuid), find(scope, uuid)) };
    await expect(getActionGroup(recording, businessScope('b1'), 'cccccccc-cccc-4ccc-8ccc-cccccccccccc')).rejects.toMatchObject({ code: 'ACTION_GROUP_NOT_FOUND' });
    await expect(getActionGroup(recording, businessScope('b1'), THEIRS)).rejects.toMatchObject({ code: 'ACTION_GROUP_NOT_FOUND' });
    await expect(getActionGroup(recording, businessScope('b1'), `${GROUP}x`)).rejects.toMatchObject({ code: 'ACTION_GROUP_NOT_FOUND' });
    // A string that is no uuid is not looked up at all.
    expect(lookups).toEqual(['cccccccc-cccc-4ccc-8ccc-cccccccccccc', THEIRS]);
    await expect(getActionGroup(store, businessScope('b2'), THEIRS)).resolves.toMatchObject({ uuid: THEIRS, status: 'succeeded', finished_at: at(9).toISOString() });
  });
});
