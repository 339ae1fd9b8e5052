import { businessScope } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import { runWithRequestContext } from '@cmsg/platform';
import { FakeConversationServices } from '../testing/fake-conversation-services';
import { InMemoryActionGroupStore } from '../testing/in-memory-action-group-store';
import { silentLogger } from '../testing/silent-logger';
import type { ConversationCommand } from './conversation-command';
import { parseConversationCommand } from './conversation-command';
import { type SubmitActionGroupInput, submitActionGroup } from './submit-action-group.usecase';

const caller = { business_id: 'b1', token_uuid: 't1' };
const ANA = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

describe('submitActionGroup', () => {
  let fake: FakeConversationServices;
  let store: InMemoryActionGroupStore;
  let published: { key: string; command: ConversationCommand }[];
  let publishFails: boolean;

  const submit = (overrides: Partial<SubmitActionGroupInput> = {}) =>
    submitActionGroup(
      {
        actions: fake.services.actions,
        publisher: {
          submit: async (key, command) => {
            if (publishFails) throw new CatalogError('SERVICE_UNAVAILABLE');
            published.push({ key, command: JSON.parse(JSON.stringify(command)) });
          },
        },
        groups: store,
        clock: { now: () => new Date('2026-01-01T00:00:00Z') },
        logger: silentLogger,
      },
      {
        caller,
        conversation: { phone: '+52 55 1234 5678' },
        actions: [{ type: 'assign_label', tags: [{ name: 'vip' }] }, { type: 'run_ai', ai_employee: { uuid: ANA } }],
        stopOnError: true,
        escalateOnError: false,
        depth: 0,
        source: 'action_group',
        ...overrides,
      },
    );

  beforeEach(() => {
    fake = new FakeConversationServices();
    fake.addEmployee({ uuid: ANA, name: 'Ana' });
    store = new InMemoryActionGroupStore();
    published = [];
    publishFails = false;
  });

  it('resolves the conversation, produces one command keyed by it, stores the group and answers the acknowledgement', async () => {
    const response = await runWithRequestContext({ requestId: 'req-1' }, () => submit());
    expect(fake.callsOf('getConversationContext')).toEqual([{ caller, conversation: { phone: '+52 55 1234 5678' } }]);
    expect(fake.callsOf('resolveConversation')).toEqual([]);
    const groupUuid = response.action_group!.uuid;
    expect(response).toEqual({ conversation: { uuid: fake.context.uuid }, status: 'processing', actions_accepted: 2, action_group: { uuid: groupUuid } });
    expect(published).toHaveLength(1);
    expect(published[0]!.key).toBe(fake.context.uuid);
    const command = parseConversationCommand(published[0]!.command);
    expect(command).toMatchObject({
      kind: 'action_group',
      group_uuid: groupUuid,
      business_id: 'b1',
      token_uuid: 't1',
      request_id: 'req-1',
      conversation_uuid: fake.context.uuid,
      depth: 0,
      stop_on_error: true,
      escalate_on_error: false,
      actions: [{ type: 'assign_label', tags: [{ name: 'vip' }] }, { type: 'run_ai', ai_employee: { uuid: ANA } }],
    });
    const stored = await store.find(businessScope('b1'), groupUuid);
    expect(stored).toMatchObject({ status: 'processing', conversation_id: fake.context.uuid, escalated: false });
    expect(stored!.actions.map((action) => [action.index, action.type, action.status])).toEqual([
      [0, 'assign_label', 'pending'],
      [1, 'run_ai', 'pending'],
    ]);
  });

  it('rejects the whole group on a preflight failure: nothing produced, nothing stored', async () => {
    fake.addEmployee({ uuid: ANA, name: 'Ana', wallet_tokens: 0 });
    await expect(submit()).rejects.toMatchObject({ code: 'WALLET_BLOCKED', message: expect.stringMatching(/^actions\[1\] \(run_ai\): /) });
    expect(published).toEqual([]);
    expect(store.groups.size).toBe(0);
  });

  it('only resolves the reference of a group without AI-triggering actions: no context, no preflight', async () => {
    const response = await submit({ actions: [{ type: 'assign_label', tags: [{ name: 'vip' }] }, { type: 'mark_pending' }] });
    expect(fake.calls.map((call) => call.method)).toEqual(['resolveConversation']);
    expect(fake.callsOf('resolveConversation')).toEqual([{ caller, conversation: { phone: '+52 55 1234 5678' } }]);
    expect(response.conversation).toEqual({ uuid: fake.context.uuid });
    expect(published.map((entry) => entry.key)).toEqual([fake.context.uuid]);
    expect(parseConversationCommand(published[0]!.command)).toMatchObject({ conversation_uuid: fake.context.uuid });
  });

  it('passes conversation reference errors through, with or without AI-triggering actions', async () => {
    fake.failNext('getConversationContext', 'PHONE_NUMBER_AMBIGUOUS');
    await expect(submit()).rejects.toMatchObject({ code: 'PHONE_NUMBER_AMBIGUOUS' });
    fake.failNext('resolveConversation', 'CONVERSATION_NOT_FOUND');
    await expect(submit({ actions: [{ type: 'mark_pending' }] })).rejects.toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
    expect(published).toEqual([]);
    expect(store.groups.size).toBe(0);
  });

  it('validates the actions itself: limits first, then each action by its schema', async () => {
    await expect(submit({ actions: Array.from({ length: 11 }, () => ({ type: 'nonsense' })) })).rejects.toMatchObject({ code: 'BATCH_LIMIT_EXCEEDED' });
    await expect(submit({ actions: [] })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(submit({ actions: [{ type: 'mark_pending' }, { type: 'context_note', note: '' }] })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      message: expect.stringContaining('actions.1.note'),
    });
    expect(fake.calls).toEqual([]);
  });

  it('fails without storing anything when the command cannot be produced', async () => {
    publishFails = true;
    await expect(submit()).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(store.groups.size).toBe(0);
  });
});
