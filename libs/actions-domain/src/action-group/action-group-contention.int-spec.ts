import { randomUUID } from 'node:crypto';
import { type ActionGroupEntity, ActionGroupRepository, type OutboxEntry, businessScope, type RecordedResult } from '@cmsg/dal';
import { connectToOwnDatabase, dropConnectedDatabase, storedCollection } from '@cmsg/testing-database';

const WRITERS = 50;

/** The figures the lead quotes: how many wrote, how many writes were lost, how many happened twice. */
function report(what: string, counts: { writers: number; lost: number; twice: number }): void {
  console.log(`[contention] ${what}: writers ${counts.writers}, lost ${counts.lost}, twice ${counts.twice}`);
}

/**
 * Two runners of one group (a partition moving during a rebalance) write the same group document
 * at the same moment. Against the real local MongoDB, 50 writers at once: each action keeps one
 * result, different actions keep theirs, the group escalates once and finishes once.
 */
describe('ActionGroupRepository under contention', () => {
  const repository = new ActionGroupRepository();
  const businessId = randomUUID();
  const scope = businessScope(businessId);
  const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);
  /** The outbox entry a write pushes (docs/events.md): only the write that makes the change may push it. */
  const entry = (type: string, writer: number): OutboxEntry => ({
    id: `${type}:${writer}`,
    type,
    conversation_id: null,
    data: { writer },
    author: { type: 'system', uuid: null, name: null },
    created_at: at(writer),
  });

  const groupOf = (actions: number): ActionGroupEntity => ({
    _id: randomUUID(),
    business_id: businessId,
    conversation_id: randomUUID(),
    token_uuid: randomUUID(),
    request_id: null,
    source: 'action_group',
    depth: 0,
    stop_on_error: false,
    escalate_on_error: true,
    status: 'processing',
    escalated: false,
    actions: Array.from({ length: actions }, (_, index) => ({
      index,
      type: 'context_note',
      params: { type: 'context_note', note: `note ${index}` },
      status: 'pending',
      error: null,
      started_at: null,
      finished_at: null,
    })),
    created_at: at(0),
    started_at: null,
    finished_at: null,
  });

  // The local MongoDB of the integration suite (memory backend), in a database of its own.
  beforeAll(async () => {
    await connectToOwnDatabase('actions_groups_it');
    await repository.ensureIndexes();
  });

  afterAll(async () => {
    await dropConnectedDatabase();
  });

  it('creates and starts a group once when the synchronous phase and 50 runners start it at once', async () => {
    const group = groupOf(3);
    // Writer w starts at 3000 + (7w mod 50) ms: the earliest start is writer 0's.
    const started = await Promise.all([repository.createIfMissing(group), ...Array.from({ length: WRITERS }, (_, writer) => repository.start(group, at(3_000 + ((writer * 7) % WRITERS))))]);
    const answers = started.filter((value): value is ActionGroupEntity => value !== undefined);
    const stored = (await repository.find(scope, group._id))!;
    const documents = await storedCollection('action_groups').countDocuments({ _id: group._id as never });
    report('group start by 50 runners', { writers: WRITERS, lost: stored.started_at?.getTime() === at(3_000).getTime() ? 0 : 1, twice: documents - 1 });
    expect(documents).toBe(1);
    expect(answers).toHaveLength(WRITERS);
    expect(answers.every((answer) => answer._id === group._id && answer.status === 'processing' && answer.started_at !== null)).toBe(true);
    expect(stored.started_at).toEqual(at(3_000));
    // The first action was marked running by one of them; the others left it as it was.
    expect(stored.actions.map((action) => action.status)).toEqual(['running', 'pending', 'pending']);
    expect((await repository.start(group, at(9_000))).started_at).toEqual(at(3_000));
  });

  it('records one result when 50 runners record one action at once, and every runner answers that one', async () => {
    const group = await repository.start(groupOf(2), at(0));
    const attempts = Array.from({ length: WRITERS }, (_, writer) => ({
      status: writer % 2 === 0 ? ('succeeded' as const) : ('failed' as const),
      error: writer % 2 === 0 ? null : { code: 'SEND_FAILED', message: `writer ${writer}` },
      finishedAt: at(1_000 + writer),
      startNext: { index: 1, at: at(1_000 + writer) },
      ...(writer % 2 === 0 ? {} : { event: entry('action.failed', writer) }),
    }));
    const answers = await Promise.all(attempts.map((attempt) => repository.recordActionResult(scope, group._id, 0, attempt)));
    const stored = (await repository.find(scope, group._id))!;
    const recorded: RecordedResult = { status: stored.actions[0]!.status as RecordedResult['status'], error: stored.actions[0]!.error, finishedAt: stored.actions[0]!.finished_at! };
    const winners = attempts.filter((attempt, writer) => attempt.finishedAt.getTime() === answers[writer]!.finishedAt.getTime());
    const disagreeing = answers.filter((answer) => JSON.stringify(answer) !== JSON.stringify(recorded));
    report('one action recorded by 50 runners', { writers: WRITERS, lost: disagreeing.length, twice: winners.length - 1 });
    expect(winners).toHaveLength(1);
    expect(disagreeing).toHaveLength(0);
    expect(recorded).toEqual({ status: winners[0]!.status, error: winners[0]!.error, finishedAt: winners[0]!.finishedAt });
    // The next action was started in the same update, once.
    expect(stored.actions[1]!.status).toBe('running');
    // A failure's entry was pushed by the write that recorded it, and by no other.
    const winner = attempts.indexOf(winners[0]!);
    expect((stored.outbox ?? []).map((pushed) => pushed.id)).toEqual(winners[0]!.status === 'failed' ? [`action.failed:${winner}`] : []);
  });

  it('keeps every result when 50 runners record 50 different actions of one group at once', async () => {
    const group = await repository.start(groupOf(WRITERS), at(0));
    // Each write also starts the next action: that must never replace the next one's result.
    const answers = await Promise.all(
      group.actions.map((action) =>
        repository.recordActionResult(scope, group._id, action.index, {
          status: action.index % 3 === 0 ? 'noop' : 'succeeded',
          error: null,
          finishedAt: at(2_000 + action.index),
          ...(action.index + 1 < WRITERS ? { startNext: { index: action.index + 1, at: at(2_000 + action.index) } } : {}),
        }),
      ),
    );
    const stored = (await repository.find(scope, group._id))!;
    const lost = stored.actions.filter((action) => action.status !== (action.index % 3 === 0 ? 'noop' : 'succeeded') || action.finished_at?.getTime() !== at(2_000 + action.index).getTime());
    const foreign = answers.filter((answer, index) => answer.finishedAt.getTime() !== at(2_000 + index).getTime());
    report('50 actions of one group recorded at once', { writers: WRITERS, lost: lost.length, twice: foreign.length });
    expect(lost).toEqual([]);
    expect(foreign).toEqual([]);
  });

  it('escalates a group once when 50 runners escalate it at once', async () => {
    const group = await repository.start(groupOf(1), at(0));
    const won = await Promise.all(Array.from({ length: WRITERS }, (_, writer) => repository.markEscalated(scope, group._id, entry('action_group.escalated', writer))));
    const winners = won.filter(Boolean).length;
    report('escalation by 50 runners', { writers: WRITERS, lost: winners === 0 ? 1 : 0, twice: Math.max(0, winners - 1) });
    expect(winners).toBe(1);
    const stored = (await repository.find(scope, group._id))!;
    expect(stored.escalated).toBe(true);
    expect(stored.outbox).toEqual([entry('action_group.escalated', won.indexOf(true))]);
    expect(await repository.markEscalated(scope, group._id, entry('action_group.escalated', WRITERS))).toBe(false);
  });

  it('finishes a group once when 50 runners finish it at once with different statuses', async () => {
    const group = await repository.start(groupOf(1), at(0));
    const finishes = await Promise.all(
      Array.from({ length: WRITERS }, (_, writer) =>
        repository.finish(scope, group._id, writer % 2 === 0 ? 'succeeded' : 'failed', at(4_000 + writer), entry('action_group.finished', writer)),
      ),
    );
    const stored = (await repository.find(scope, group._id))!;
    const outcome = (value: ActionGroupEntity | null) => `${value?.status}@${value?.finished_at?.toISOString()}`;
    const disagreeing = finishes.filter((finished) => outcome(finished) !== outcome(stored));
    const finishers = new Set(finishes.map((finished) => outcome(finished)));
    report('final status by 50 runners', { writers: WRITERS, lost: disagreeing.length, twice: finishers.size - 1 });
    expect(disagreeing).toEqual([]);
    expect(stored.status).not.toBe('processing');
    const writer = (stored.finished_at!.getTime() - at(4_000).getTime()) as number;
    expect(stored.status).toBe(writer % 2 === 0 ? 'succeeded' : 'failed');
    expect(stored.outbox).toEqual([entry('action_group.finished', writer)]);
  });

  it('never shows or changes a group of another business', async () => {
    const group = await repository.start(groupOf(1), at(0));
    const other = businessScope(randomUUID());
    expect(await repository.find(other, group._id)).toBeNull();
    expect(await repository.markEscalated(other, group._id, entry('action_group.escalated', 0))).toBe(false);
    expect(await repository.finish(other, group._id, 'failed', at(5_000), entry('action_group.finished', 0))).toBeNull();
    expect((await repository.find(scope, group._id))!).toMatchObject({ status: 'processing', escalated: false });
  });
});
