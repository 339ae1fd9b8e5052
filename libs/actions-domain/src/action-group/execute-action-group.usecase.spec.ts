import { randomUUID } from 'node:crypto';
import { type OutboxEntry, businessScope } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import { AiPipelines } from '../ai/ai-pipelines';
import { FakeAiProvider } from '../testing/fake-ai-provider';
import { FakeConversationServices } from '../testing/fake-conversation-services';
import { InMemoryActionGroupStore } from '../testing/in-memory-action-group-store';
import { silentLogger } from '../testing/silent-logger';
import { deterministicUuid } from '../webhooks/webhook-events';
import { ActionExecutor } from './action-executor';
import { initialGroupDocument } from './initial-group-document';
import { type ActionGroupCommand, createActionGroupCommand } from './conversation-command';
import { CommandAbandonedError, ExecuteActionGroup, changeTimes } from './execute-action-group.usecase';

const BUSINESS = 'b1';
const scope = businessScope(BUSINESS);

describe('changeTimes', () => {
  const at = (ms: number) => new Date(Date.parse('2026-01-01T00:00:00Z') + ms);
  const elapsed = (times: { startedAt: Date; finishedAt: Date }[]) => times.map(({ startedAt, finishedAt }) => [startedAt.getTime() - at(0).getTime(), finishedAt.getTime() - at(0).getTime()]);

  it('places the changes one after another from the call start, floored on the running sum', () => {
    expect(elapsed(changeTimes(at(0), at(20), [{ durationMs: 2.6 }, { durationMs: 0.7 }, { durationMs: 4 }]))).toEqual([
      [0, 2],
      [2, 3],
      [3, 7],
    ]);
  });

  it('never past the answer (the service took longer by its clock than the call by this one)', () => {
    expect(elapsed(changeTimes(at(0), at(5), [{ durationMs: 4 }, { durationMs: 4 }]))).toEqual([
      [0, 4],
      [4, 5],
    ]);
  });
});

describe('ExecuteActionGroup', () => {
  let fake: FakeConversationServices;
  let store: InMemoryActionGroupStore;
  /** The outbox entries the use case asked to record, in order. */
  let recorded: OutboxEntry[];
  let now: number;
  let run: ExecuteActionGroup;
  const signal = () => new AbortController().signal;

  function command(actions: unknown[], flags: Partial<Pick<ActionGroupCommand, 'stop_on_error' | 'escalate_on_error'>> = {}): ActionGroupCommand {
    return createActionGroupCommand({
      group_uuid: randomUUID(),
      business_id: BUSINESS,
      token_uuid: 't1',
      request_id: null,
      conversation_uuid: fake.context.uuid,
      source: 'action_group',
      depth: 0,
      stop_on_error: true,
      escalate_on_error: true,
      actions: actions as ActionGroupCommand['actions'],
      created_at: new Date(now).toISOString(),
      ...flags,
    });
  }

  const build = (options: { groupBudgetMs?: number } = {}) =>
    new ExecuteActionGroup({
      groups: store,
      executor: new ActionExecutor(fake.services, new AiPipelines(fake.services, new FakeAiProvider(), { now: () => new Date(now) }, silentLogger)),
      actions: fake.services.actions,
      events: { recordQuietly: async (_collection, _scope, _id, entries) => void recorded.push(...entries) },
      clock: {
        now: () => {
          now += 10;
          return new Date(now);
        },
      },
      logger: silentLogger,
      ...options,
    });

  const stored = async (group: ActionGroupCommand) => (await store.find(scope, group.group_uuid))!;
  const statuses = async (group: ActionGroupCommand) => (await stored(group)).actions.map((action) => action.status);

  beforeEach(() => {
    fake = new FakeConversationServices();
    store = new InMemoryActionGroupStore();
    recorded = [];
    now = Date.parse('2026-01-01T00:00:00Z');
    run = build();
  });

  it('runs every action in order and records results with timestamps', async () => {
    const group = command([{ type: 'assign_label', tags: [{ name: 'vip' }] }, { type: 'send_message', text: 'Hi' }, { type: 'mark_pending' }]);
    await run.execute(group, signal());
    const result = await stored(group);
    expect(result.status).toBe('succeeded');
    expect(result.actions.map((action) => action.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(fake.calls.map((call) => call.method)).toEqual(['applyChanges', 'assignTags', 'sendMessage', 'applyChanges', 'markPending']);
    for (const [index, action] of result.actions.entries()) {
      expect(action.started_at!.getTime()).toBeLessThan(action.finished_at!.getTime());
      if (index > 0) expect(result.actions[index - 1]!.finished_at!.getTime()).toBeLessThanOrEqual(action.started_at!.getTime());
    }
    expect(result.finished_at).not.toBeNull();
    expect(typesOf(store.outboxOf(group.group_uuid))).toEqual(['action_group.finished']);
    expect(recorded).toEqual(store.outboxOf(group.group_uuid));
  });

  it('on the success path, starts the group with its first action, records each result with the next start, and the last with the finish: no other write', async () => {
    const start = jest.spyOn(store, 'start');
    const markRunning = jest.spyOn(store, 'markActionRunning');
    const record = jest.spyOn(store, 'recordActionResult');
    const recordLast = jest.spyOn(store, 'recordLastResultAndFinish');
    const finish = jest.spyOn(store, 'finish');
    const group = command([{ type: 'send_message', text: 'a' }, { type: 'send_message', text: 'b' }, { type: 'send_message', text: 'c' }]);
    await run.execute(group, signal());
    expect(start).toHaveBeenCalledTimes(1);
    expect(markRunning).not.toHaveBeenCalled();
    expect(record.mock.calls.map(([, , index, result]) => [index, result.startNext?.index ?? null])).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(recordLast.mock.calls.map(([, , index, result, finished]) => [index, result.status, finished.status])).toEqual([[2, 'succeeded', 'succeeded']]);
    expect(finish).not.toHaveBeenCalled();
    const result = await stored(group);
    expect({ status: result.status, finished_at: result.finished_at, actions: result.actions.map((action) => action.status) }).toEqual({
      status: 'succeeded',
      finished_at: result.actions[2]!.finished_at,
      actions: ['succeeded', 'succeeded', 'succeeded'],
    });
    expect(typesOf(recorded)).toEqual(['action_group.finished']);
  });

  it('records the last result and finishes apart when another runner recorded that result first', async () => {
    const group = command([{ type: 'send_message', text: 'a' }, { type: 'send_message', text: 'b' }]);
    const recordLast = jest.spyOn(store, 'recordLastResultAndFinish').mockImplementationOnce(async (scope, uuid, index) => {
      // The other runner's result lands just before this runner's write.
      await store.recordActionResult(scope, uuid, index, { status: 'noop', error: null, finishedAt: new Date(0) });
      return null;
    });
    await run.execute(group, signal());
    expect(recordLast).toHaveBeenCalledTimes(1);
    const result = await stored(group);
    expect({ status: result.status, last: result.actions[1]!.status }).toEqual({ status: 'succeeded', last: 'noop' });
    expect(typesOf(recorded)).toEqual(['action_group.finished']);
  });

  it('applies consecutive changes in one call, in order, and records their results in one write with the start of the action after them', async () => {
    const markRunning = jest.spyOn(store, 'markActionRunning');
    const recordOne = jest.spyOn(store, 'recordActionResult');
    const recordMany = jest.spyOn(store, 'recordActionResults');
    const group = command([
      { type: 'assign_label', tags: [{ name: 'vip' }] },
      { type: 'context_note', note: 'n' },
      { type: 'assign_mailbox', mailbox: { name: 'Sales' } },
      { type: 'send_message', text: 'Hi' },
      { type: 'mark_pending' },
    ]);
    await run.execute(group, signal());
    expect(fake.calls.map((call) => call.method)).toEqual(['applyChanges', 'assignTags', 'addNote', 'assignMailbox', 'sendMessage', 'applyChanges', 'markPending']);
    expect(fake.callsOf('applyChanges')[0].changes.map((change: object) => Object.keys(change))).toEqual([['assign_tags'], ['add_note'], ['assign_mailbox']]);
    expect(fake.callsOf('addNote')[0].operation_id).toBe(`${group.group_uuid}:1`);
    expect(markRunning).not.toHaveBeenCalled();
    expect(recordMany.mock.calls.map(([, , results, startNext]) => [results.map((result) => result.index), startNext?.index ?? null])).toEqual([[[0, 1, 2], 3]]);
    expect(recordOne.mock.calls.map(([, , index, result]) => [index, result.startNext?.index ?? null])).toEqual([[3, 4]]);
    const result = await stored(group);
    expect(result.actions.map((action) => action.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded', 'succeeded']);
    // One after another from the call's start, each as long as the service took (1 ms in the fake).
    const [tag, note, mailbox, send] = result.actions;
    expect(tag!.started_at!.getTime()).toBeLessThan(tag!.finished_at!.getTime());
    expect(note!.started_at).toEqual(tag!.finished_at);
    expect(mailbox!.started_at).toEqual(note!.finished_at);
    expect([note, mailbox].map((action) => action!.finished_at!.getTime() - action!.started_at!.getTime())).toEqual([1, 1]);
    expect(mailbox!.finished_at!.getTime()).toBeLessThanOrEqual(send!.started_at!.getTime());
  });

  it('stops a call of changes at a failure: the changes before it succeed, the failure escalates before anything after it runs, and stop_on_error skips the rest', async () => {
    fake.failNext('addNote', 'UPDATE_FAILED', 'The note could not be added.');
    const group = command([{ type: 'assign_label', tags: [{ name: 'vip' }] }, { type: 'context_note', note: 'n' }, { type: 'mark_resolved' }, { type: 'send_message', text: 'Hi' }]);
    await run.execute(group, signal());
    const result = await stored(group);
    expect(result.actions.map((action) => [action.status, action.error?.code ?? null])).toEqual([
      ['succeeded', null],
      ['failed', 'UPDATE_FAILED'],
      ['skipped', null],
      ['skipped', null],
    ]);
    expect(fake.calls.map((call) => call.method)).toEqual(['applyChanges', 'assignTags', 'addNote', 'escalate']);
    expect(typesOf(recorded)).toEqual(['action.failed', 'action_group.escalated', 'action_group.finished']);
    expect(recorded[0]).toMatchObject({ id: deterministicUuid(group.group_uuid, 'action.failed', '1'), data: { action: { index: 1, type: 'context_note' } } });
    expect(result.actions[1]!.started_at).not.toBeNull();
  });

  it('without stop_on_error, goes on after a failed change with the next changes in a call of their own, after the escalation', async () => {
    fake.failNext('assignTags', 'UPDATE_FAILED');
    const group = command([{ type: 'assign_label', tags: [{ name: 'vip' }] }, { type: 'context_note', note: 'n' }, { type: 'mark_resolved' }], { stop_on_error: false });
    await run.execute(group, signal());
    expect(await statuses(group)).toEqual(['failed', 'succeeded', 'succeeded']);
    expect(fake.calls.map((call) => call.method)).toEqual(['applyChanges', 'assignTags', 'escalate', 'applyChanges', 'addNote', 'markResolved']);
  });

  it('fails a tag change with a failed tag in a call of changes, and runs nothing after it in that call', async () => {
    fake.answer('assignTags', (request) => ({ conversation: { uuid: fake.context.uuid }, tags: [], results: [{ requested: request.tags[0], status: 'failed', error: { code: 'TAG_NOT_FOUND', message: 'No tag named x.' } }] }));
    const group = command([{ type: 'assign_label', tags: [{ name: 'x' }] }, { type: 'mark_pending' }], { stop_on_error: false });
    await run.execute(group, signal());
    const result = await stored(group);
    expect(result.actions.map((action) => [action.status, action.error?.code ?? null])).toEqual([
      ['failed', 'TAG_NOT_FOUND'],
      ['succeeded', null],
    ]);
    expect(fake.callsOf('applyChanges').map((request) => request.changes.length)).toEqual([2, 1]);
  });

  it('records the changes before one whose dependency did not answer, and leaves that one and the rest for the retry', async () => {
    fake.failNext('addNote', 'SERVICE_UNAVAILABLE');
    const group = command([{ type: 'assign_label', tags: [{ name: 'vip' }] }, { type: 'context_note', note: 'n' }, { type: 'mark_resolved' }]);
    await expect(run.execute(group, signal())).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(await statuses(group)).toEqual(['succeeded', 'pending', 'pending']);
    await run.execute(group, signal());
    expect(await statuses(group)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(fake.callsOf('assignTags')).toHaveLength(1);
    expect(fake.callsOf('addNote').map((request) => request.operation_id)).toEqual([`${group.group_uuid}:1`, `${group.group_uuid}:1`]);
  });

  it('counts a failed call of changes as the failure of its first change, and one that answered nothing as UPDATE_FAILED', async () => {
    fake.failNext('applyChanges', 'INVALID_REQUEST', 'Bad change.');
    const group = command([{ type: 'assign_label', tags: [{ name: 'vip' }] }, { type: 'mark_pending' }], { stop_on_error: false });
    await run.execute(group, signal());
    expect((await stored(group)).actions.map((action) => [action.status, action.error?.code ?? null])).toEqual([
      ['failed', 'INVALID_REQUEST'],
      ['succeeded', null],
    ]);
    fake.answer('applyChanges', () => ({ results: [] }));
    const silent = command([{ type: 'assign_label', tags: [{ name: 'vip' }] }, { type: 'mark_pending' }], { stop_on_error: true });
    await run.execute(silent, signal());
    expect((await stored(silent)).actions.map((action) => [action.status, action.error?.code ?? null])).toEqual([
      ['failed', 'UPDATE_FAILED'],
      ['skipped', null],
    ]);
  });

  it('keeps the results another runner recorded first for changes of a call, and goes on from its failure', async () => {
    const group = command([{ type: 'context_note', note: 'n' }, { type: 'mark_pending' }, { type: 'mark_resolved' }]);
    const recordMany = store.recordActionResults.bind(store);
    store.recordActionResults = async (recordScope, uuid, results, startNext) => {
      await store.recordActionResult(recordScope, uuid, 1, { status: 'failed', error: { code: 'UPDATE_FAILED', message: 'by the other runner' }, finishedAt: new Date(now) });
      return recordMany(recordScope, uuid, results, startNext);
    };
    await run.execute(group, signal());
    const result = await stored(group);
    expect(result.actions.map((action) => [action.status, action.error?.code ?? null])).toEqual([
      ['succeeded', null],
      ['failed', 'UPDATE_FAILED'],
      ['succeeded', null],
    ]);
    expect([result.status, result.escalated]).toEqual(['failed', true]);
  });

  it('stop_on_error: the first failure skips the rest, escalates once for an escalating code, and is reported', async () => {
    fake.failNext('sendMessage', 'SEND_FAILED', 'Sending to the chat channel failed.');
    const group = command([{ type: 'send_message', text: 'Hi' }, { type: 'mark_pending' }, { type: 'context_note', note: 'n' }]);
    await run.execute(group, signal());
    const result = await stored(group);
    expect(result.actions.map((action) => [action.status, action.error?.code ?? null])).toEqual([
      ['failed', 'SEND_FAILED'],
      ['skipped', null],
      ['skipped', null],
    ]);
    expect([result.status, result.escalated]).toEqual(['failed', true]);
    expect(fake.callsOf('escalate')).toEqual([{ caller: { business_id: BUSINESS, token_uuid: 't1' }, conversation_uuid: fake.context.uuid, pending_reason: 'action_set_failed' }]);
    // Each event is pushed by the write that makes its change and recorded right after; the
    // escalation adds the timeline's action_group_escalated row. The ids are those section 4's
    // webhooks always had.
    expect(typesOf(recorded)).toEqual(['action.failed', 'action_group.escalated', 'action_group.finished']);
    expect(store.outboxOf(group.group_uuid)).toEqual(recorded);
    const [failed, escalated, finished] = recorded;
    expect(failed).toMatchObject({
      id: deterministicUuid(group.group_uuid, 'action.failed', '0'),
      data: { action_group: { uuid: group.group_uuid }, conversation: { uuid: fake.context.uuid }, action: { index: 0, type: 'send_message', error: { code: 'SEND_FAILED' } } },
    });
    expect(finished).toMatchObject({
      id: deterministicUuid(group.group_uuid, 'action_group.finished'),
      data: { action_group: { uuid: group.group_uuid, status: 'failed', escalated: true }, conversation: { uuid: fake.context.uuid } },
    });
    expect(escalated!.data).toEqual({ action_group_uuid: group.group_uuid, reason: 'SEND_FAILED' });
    expect(recorded.every((entry) => entry.conversation_id === fake.context.uuid)).toBe(true);
  });

  it('stop_on_error false: every action runs; several escalating failures escalate once', async () => {
    fake.failNext('sendMessage', 'SEND_FAILED');
    fake.failNext('sendMessage', 'PREPARE_FAILED');
    const group = command([{ type: 'send_message', text: 'a' }, { type: 'send_message', text: 'b' }, { type: 'mark_pending' }], { stop_on_error: false });
    await run.execute(group, signal());
    expect(await statuses(group)).toEqual(['failed', 'failed', 'succeeded']);
    expect(fake.callsOf('escalate')).toHaveLength(1);
    expect((await stored(group)).status).toBe('failed');
    expect(typesOf(store.outboxOf(group.group_uuid)).filter((type) => type === 'action.failed')).toHaveLength(2);
  });

  it.each([
    ['escalate_on_error false', 'SEND_FAILED', { escalate_on_error: false }],
    ['a client-input code', 'TAG_NOT_FOUND', {}],
    ['a billing guard', 'WALLET_BLOCKED', {}],
    ['WINDOW_CLOSED', 'WINDOW_CLOSED', {}],
  ] as const)('does not escalate for %s', async (_case, code, flags) => {
    fake.failNext('assignTags', code);
    const group = command([{ type: 'assign_label', tags: [{ name: 'x' }] }], flags);
    await run.execute(group, signal());
    expect(fake.callsOf('escalate')).toHaveLength(0);
    expect((await stored(group)).escalated).toBe(false);
  });

  it('counts no-ops as success', async () => {
    fake.answer('assignMailbox', () => ({ noop: true }));
    const group = command([{ type: 'assign_mailbox', mailbox: { name: 'Sales' } }, { type: 'mark_resolved' }]);
    await run.execute(group, signal());
    expect(await statuses(group)).toEqual(['noop', 'succeeded']);
    expect((await stored(group)).status).toBe('succeeded');
  });

  it('resumes after a crash: recorded actions are not run again; the one left running runs with the same operation id', async () => {
    const group = command([{ type: 'send_message', text: 'one' }, { type: 'send_message', text: 'two' }, { type: 'send_message', text: 'three' }]);
    const document = initialGroupDocument(group);
    document.started_at = new Date(now);
    document.actions[0]!.status = 'succeeded';
    document.actions[1]!.status = 'running';
    await store.createIfMissing(document);
    await run.execute(group, signal());
    expect(fake.callsOf('sendMessage').map((request) => [request.operation_id, request.text.body])).toEqual([
      [`${group.group_uuid}:1`, 'two'],
      [`${group.group_uuid}:2`, 'three'],
    ]);
    expect(await statuses(group)).toEqual(['succeeded', 'succeeded', 'succeeded']);
  });

  it('re-applies the effects of a failure recorded before a crash: its event left in the outbox is recorded, one escalation', async () => {
    const group = command([{ type: 'send_message', text: 'one' }, { type: 'mark_pending' }]);
    const document = initialGroupDocument(group);
    const error = { code: 'SEND_FAILED', message: 'x' };
    document.actions[0] = { ...document.actions[0]!, status: 'failed', error };
    // The write that recorded the failure pushed its entry; the run that made it died before recording it.
    const leftBehind = { id: deterministicUuid(group.group_uuid, 'action.failed', '0'), type: 'action.failed', conversation_id: group.conversation_uuid, data: { error }, author: { type: 'system', uuid: null, name: null }, created_at: new Date(now) };
    document.outbox = [leftBehind];
    await store.createIfMissing(document);
    await run.execute(group, signal());
    expect(await statuses(group)).toEqual(['failed', 'skipped']);
    expect(fake.callsOf('escalate')).toHaveLength(1);
    expect(recorded[0]).toEqual(leftBehind);
    // Not pushed again: the failure was recorded by the earlier run.
    expect(typesOf(store.outboxOf(group.group_uuid))).toEqual(['action.failed', 'action_group.escalated', 'action_group.finished']);
  });

  it('leaves an action whose dependency did not answer running, for the retry to run again', async () => {
    fake.failNext('sendMessage', 'SERVICE_UNAVAILABLE');
    const group = command([{ type: 'mark_pending' }, { type: 'send_message', text: 'Hi' }]);
    await expect(run.execute(group, signal())).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(await statuses(group)).toEqual(['succeeded', 'running']);
    await run.execute(group, signal());
    expect(await statuses(group)).toEqual(['succeeded', 'succeeded']);
    expect(fake.callsOf('markPending')).toHaveLength(1);
  });

  it('gives the command up when its partition is revoked, leaving the action for the next owner', async () => {
    const provider = new FakeAiProvider();
    provider.hangUntilAborted = true;
    fake.addEmployee({ uuid: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', name: 'Ana' });
    run = new ExecuteActionGroup({
      groups: store,
      executor: new ActionExecutor(fake.services, new AiPipelines(fake.services, provider, { now: () => new Date(now) }, silentLogger)),
      actions: fake.services.actions,
      events: { recordQuietly: async () => undefined },
      clock: { now: () => new Date(now) },
      logger: silentLogger,
    });
    const group = command([{ type: 'run_ai', ai_employee: { name: 'Ana' } }]);
    const controller = new AbortController();
    const running = run.execute(group, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(CommandAbandonedError);
    expect(await statuses(group)).toEqual(['running']);
    expect((await stored(group)).status).toBe('processing');
  });

  it('starts no further action once the command was given up, recording the one that finished', async () => {
    const controller = new AbortController();
    fake.answer('markPending', () => {
      controller.abort();
      return { inbox_status: 'pending' };
    });
    const group = command([{ type: 'mark_pending' }, { type: 'send_message', text: 'Hi' }]);
    await expect(run.execute(group, controller.signal)).rejects.toBeInstanceOf(CommandAbandonedError);
    expect((await statuses(group))[0]).toBe('succeeded');
    expect(fake.callsOf('sendMessage')).toHaveLength(0);
  });

  it('records the changes of a call that answered after the command was given up, and starts nothing after them', async () => {
    const controller = new AbortController();
    fake.answer('markPending', () => {
      controller.abort();
      return { inbox_status: 'pending' };
    });
    const group = command([{ type: 'mark_pending' }, { type: 'context_note', note: 'n' }, { type: 'send_message', text: 'Hi' }]);
    await expect(run.execute(group, controller.signal)).rejects.toBeInstanceOf(CommandAbandonedError);
    // The call applied both changes (the service knows nothing of the runner's partitions).
    expect(await statuses(group)).toEqual(['succeeded', 'succeeded', 'pending']);
    expect(fake.callsOf('sendMessage')).toHaveLength(0);
  });

  it('fails the action that cannot start within the group budget and skips the rest, whatever stop_on_error says', async () => {
    run = build({ groupBudgetMs: 25 });
    const group = command([{ type: 'mark_pending' }, { type: 'send_message', text: 'late' }, { type: 'mark_resolved' }], { stop_on_error: false });
    await run.execute(group, signal());
    const result = await stored(group);
    expect(result.actions.map((action) => [action.status, action.error?.code ?? null])).toEqual([
      ['succeeded', null],
      ['failed', 'UPDATE_FAILED'],
      ['skipped', null],
    ]);
    expect(result.actions[1]!.error!.message).toContain('budget');
    expect(fake.callsOf('sendMessage')).toHaveLength(0);
    expect(result.escalated).toBe(true);
  });

  it('runs nothing of a group that already finished, and records what its outbox still holds', async () => {
    const group = command([{ type: 'mark_pending' }]);
    await run.execute(group, signal());
    fake.calls.length = 0;
    recorded = [];
    // The recording double never empties the outbox: as if the first run died right after finishing.
    await run.execute(group, signal());
    expect(fake.calls).toEqual([]);
    expect(typesOf(recorded)).toEqual(['action_group.finished']);
    expect(typesOf(store.outboxOf(group.group_uuid))).toEqual(['action_group.finished']);
  });

  it('abandon: a dead-lettered group ends with every action recorded', async () => {
    const group = command([{ type: 'mark_pending' }, { type: 'context_note', note: 'n' }, { type: 'mark_resolved' }]);
    const document = initialGroupDocument(group);
    document.actions[0]!.status = 'succeeded';
    document.actions[1]!.status = 'running';
    await store.createIfMissing(document);
    await run.abandon(group, new CatalogError('SERVICE_UNAVAILABLE'));
    const result = await stored(group);
    expect(result.actions.map((action) => [action.status, action.error?.code ?? null])).toEqual([
      ['succeeded', null],
      ['failed', 'UPDATE_FAILED'],
      ['skipped', null],
    ]);
    expect(result.status).toBe('failed');
  });
  it('adopts the result another runner of the group recorded first, and goes on from it', async () => {
    const group = command([{ type: 'send_message', text: 'a' }, { type: 'send_message', text: 'b' }]);
    // Another runner (a partition that moved) records action 0 as failed just before this one does.
    const record = store.recordActionResult.bind(store);
    store.recordActionResult = async (recordScope, uuid, index, result) => {
      if (index === 0) await record(recordScope, uuid, 0, { status: 'failed', error: { code: 'SEND_FAILED', message: 'by the other runner' }, finishedAt: new Date(now) });
      return record(recordScope, uuid, index, result);
    };
    await run.execute(group, signal());
    const result = await stored(group);
    expect(result.actions.map((action) => [action.status, action.error?.code ?? null])).toEqual([
      ['failed', 'SEND_FAILED'],
      ['skipped', null],
    ]);
    expect([result.status, result.escalated]).toEqual(['failed', true]);
    // The failure's event is the other runner's write's: this run pushes none for it.
    expect(typesOf(store.outboxOf(group.group_uuid))).toEqual(['action_group.escalated', 'action_group.finished']);
  });
});

function typesOf(entries: readonly OutboxEntry[]): string[] {
  return entries.map((entry) => entry.type);
}
