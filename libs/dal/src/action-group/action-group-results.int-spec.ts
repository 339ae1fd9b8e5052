import { randomUUID } from 'node:crypto';
import { connectToOwnDatabase, dropConnectedDatabase } from '@cmsg/testing-database';
import { businessScope } from '../shared/business-scope';
import type { ActionGroupEntity, ActionRecord } from './action-group.entity';
import { ActionGroupRepository } from './action-group.repository';

/**
 * The results of consecutive changes applied in one call, recorded in one update: each result (and
 * the start of an action that was not marked running) unless the action has one, the next action's
 * start, and the results that count answered in order.
 */
describe('ActionGroupRepository.recordActionResults', () => {
  const scope = businessScope(randomUUID());
  const repository = new ActionGroupRepository();
  const at = (ms: number) => new Date(Date.UTC(2026, 10, 30, 12, 0, 0, ms));

  beforeAll(async () => {
    await connectToOwnDatabase('action_group_results_it');
    await repository.ensureIndexes();
  });

  afterAll(async () => {
    await dropConnectedDatabase();
  });

  async function group(statuses: ActionRecord['status'][]): Promise<string> {
    const id = randomUUID();
    const actions = statuses.map((status, index): ActionRecord => ({ index, type: 'context_note', params: { type: 'context_note', note: `${index}` }, status, error: null, started_at: status === 'pending' ? null : at(0), finished_at: null }));
    const document: ActionGroupEntity = {
      _id: id,
      business_id: scope.businessId,
      conversation_id: randomUUID(),
      token_uuid: randomUUID(),
      request_id: null,
      source: 'action_group',
      depth: 0,
      stop_on_error: true,
      escalate_on_error: true,
      status: 'processing',
      escalated: false,
      actions,
      created_at: at(0),
      started_at: at(0),
      finished_at: null,
      outbox: [],
    };
    await repository.createIfMissing(document);
    return id;
  }

  const actionsOf = async (id: string) => (await repository.find(scope, id))!.actions.map(({ index, status, error, started_at, finished_at }) => ({ index, status, error, started_at, finished_at }));

  it('records every result in one update, with the starts it carries, and starts the action after them', async () => {
    const id = await group(['running', 'pending', 'pending', 'pending']);
    const recorded = await repository.recordActionResults(
      scope,
      id,
      [
        { index: 0, status: 'succeeded', error: null, finishedAt: at(12) },
        { index: 1, status: 'noop', error: null, finishedAt: at(15), startedAt: at(12) },
        { index: 2, status: 'succeeded', error: null, finishedAt: at(19), startedAt: at(15) },
      ],
      { index: 3, at: at(25) },
    );
    expect(recorded).toEqual([
      { status: 'succeeded', error: null, finishedAt: at(12) },
      { status: 'noop', error: null, finishedAt: at(15) },
      { status: 'succeeded', error: null, finishedAt: at(19) },
    ]);
    expect(await actionsOf(id)).toEqual([
      { index: 0, status: 'succeeded', error: null, started_at: at(0), finished_at: at(12) },
      { index: 1, status: 'noop', error: null, started_at: at(12), finished_at: at(15) },
      { index: 2, status: 'succeeded', error: null, started_at: at(15), finished_at: at(19) },
      { index: 3, status: 'running', error: null, started_at: at(25), finished_at: null },
    ]);
  });

  it('keeps a result another runner recorded first, its start included, answers it, and records the others', async () => {
    const id = await group(['running', 'pending', 'pending']);
    const theirs = { status: 'failed' as const, error: { code: 'UPDATE_FAILED', message: 'by the other runner' }, finishedAt: at(9) };
    await repository.recordActionResult(scope, id, 1, theirs);
    const recorded = await repository.recordActionResults(scope, id, [
      { index: 0, status: 'succeeded', error: null, finishedAt: at(12) },
      { index: 1, status: 'succeeded', error: null, finishedAt: at(15), startedAt: at(12) },
      { index: 2, status: 'succeeded', error: null, finishedAt: at(19), startedAt: at(15) },
    ]);
    expect(recorded.map((result) => result.status)).toEqual(['succeeded', 'failed', 'succeeded']);
    expect(recorded[1]).toEqual(theirs);
    expect(await actionsOf(id)).toEqual([
      { index: 0, status: 'succeeded', error: null, started_at: at(0), finished_at: at(12) },
      { index: 1, status: 'failed', error: theirs.error, started_at: null, finished_at: at(9) },
      { index: 2, status: 'succeeded', error: null, started_at: at(15), finished_at: at(19) },
    ]);
  });

  it('starts no action that is not pending', async () => {
    const id = await group(['running', 'skipped']);
    await repository.recordActionResults(scope, id, [{ index: 0, status: 'succeeded', error: null, finishedAt: at(3) }], { index: 1, at: at(4) });
    expect((await actionsOf(id))[1]).toMatchObject({ status: 'skipped', started_at: at(0) });
  });

  describe('recordLastResultAndFinish', () => {
    const finishedEvent = (id: string) => ({ id: randomUUID(), type: 'action_group.finished', conversation_id: null, data: { action_group_uuid: id }, author: { type: 'system', uuid: null, name: null }, created_at: at(9) });

    it('records the last result and the final status in one update, with the finished entry', async () => {
      const id = await group(['succeeded', 'running']);
      const event = finishedEvent(id);
      const finished = await repository.recordLastResultAndFinish(scope, id, 1, { status: 'noop', error: null, finishedAt: at(9) }, { status: 'succeeded', at: at(9), event });
      expect(finished).toMatchObject({ status: 'succeeded', finished_at: at(9), outbox: [expect.objectContaining({ id: event.id })] });
      expect((await actionsOf(id))[1]).toMatchObject({ status: 'noop', finished_at: at(9), started_at: at(0) });
    });

    it.each([
      ['the action has a result another runner recorded', ['succeeded', 'failed'] as ActionRecord['status'][], 'processing' as const],
      ['the group is finished', ['succeeded', 'running'] as ActionRecord['status'][], 'failed' as const],
    ])('changes nothing and answers null when %s', async (_case, statuses, groupStatus) => {
      const id = await group(statuses);
      if (groupStatus !== 'processing') await repository.finish(scope, id, groupStatus, at(5), finishedEvent(id));
      const before = await repository.find(scope, id);
      expect(await repository.recordLastResultAndFinish(scope, id, 1, { status: 'succeeded', error: null, finishedAt: at(9) }, { status: 'succeeded', at: at(9), event: finishedEvent(id) })).toBeNull();
      expect(await repository.find(scope, id)).toEqual(before);
    });
  });
});
