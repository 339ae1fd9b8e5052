import { randomBytes, randomUUID } from 'node:crypto';
import { businessScope } from '@cmsg/dal';
import mongoose from 'mongoose';
import { ensureActionsIndexes } from '../actions-indexes';
import { ActionGroupDecisionModel } from './action-group-decision.model';
import { ActionGroupRepository, initialGroupDocument } from './action-group.repository';
import { createActionGroupCommand } from './conversation-command';

/**
 * Against the real FerretDB, whose updates are unisolated read-modify-writes of the whole document:
 * two runners of one group (a partition moving during a rebalance) must still record one result per
 * action, keep each other's results, and agree on the escalation and the final status.
 */
describe('ActionGroupRepository under concurrency on FerretDB', () => {
  const dbName = `actions_groups_it_${randomBytes(4).toString('hex')}`;
  const repository = new ActionGroupRepository();
  const businessId = randomUUID();
  const scope = businessScope(businessId);
  const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);

  const newGroup = async (actions = 5) => {
    const command = createActionGroupCommand({
      group_uuid: randomUUID(),
      business_id: businessId,
      token_uuid: randomUUID(),
      conversation_uuid: randomUUID(),
      request_id: null,
      source: 'action_group',
      depth: 0,
      stop_on_error: false,
      escalate_on_error: true,
      actions: Array.from({ length: actions }, (_, index) => ({ type: 'context_note' as const, note: `note ${index}` })),
      created_at: new Date().toISOString(),
    });
    // Both the synchronous phase and several runners create it at once.
    const opened = await Promise.all(Array.from({ length: 4 }, () => repository.open(initialGroupDocument(command))));
    expect(new Set(opened.map((group) => group._id)).size).toBe(1);
    return opened[0]!;
  };

  beforeAll(async () => {
    // A database of its own that is left in place (dropping one can stall FerretDB's catalog).
    await mongoose.connect(process.env['MONGODB_URI'] ?? 'mongodb://127.0.0.1:27117/', { dbName, serverSelectionTimeoutMS: 10_000 });
    await ensureActionsIndexes();
  });

  afterAll(async () => {
    await mongoose.disconnect();
  });

  it('records one result per action when ten runners record it at once, and every runner learns that one', async () => {
    for (let round = 0; round < 5; round += 1) {
      const group = await newGroup(1);
      const attempts = Array.from({ length: 10 }, (_, runner) =>
        repository.recordActionResult(scope, group._id, 0, {
          status: runner % 2 === 0 ? 'succeeded' : 'failed',
          error: runner % 2 === 0 ? null : { code: 'SEND_FAILED', message: `runner ${runner}` },
          finishedAt: at(runner),
        }),
      );
      const answers = await Promise.all(attempts);
      expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
      const stored = await repository.find(scope, group._id);
      expect(stored!.actions[0]).toMatchObject({ status: answers[0]!.status, error: answers[0]!.error, finished_at: answers[0]!.finishedAt });
      expect(await ActionGroupDecisionModel.countDocuments({ group_id: group._id, kind: 'result' })).toBe(1);
    }
  });

  it('keeps the results of different actions recorded at the same moment (no lost update)', async () => {
    const group = await newGroup(5);
    await Promise.all(group.actions.map((action) => repository.recordActionResult(scope, group._id, action.index, { status: 'succeeded', error: null, finishedAt: at(action.index) })));
    const stored = await repository.find(scope, group._id);
    expect(stored!.actions.map((action) => action.status)).toEqual(Array(5).fill('succeeded'));
  });

  it('lets exactly one runner record the escalation and agrees on one start and one final status', async () => {
    const group = await newGroup(2);
    const escalations = await Promise.all(Array.from({ length: 8 }, () => repository.markEscalated(scope, group._id)));
    expect(escalations.filter(Boolean)).toHaveLength(1);

    const starts = await Promise.all(Array.from({ length: 8 }, (_, runner) => repository.markStarted(scope, group._id, at(1000 + runner))));
    expect(new Set(starts.map((start) => start.getTime())).size).toBe(1);

    const finishes = await Promise.all(Array.from({ length: 8 }, (_, runner) => repository.finish(scope, group._id, runner % 2 === 0 ? 'succeeded' : 'failed', at(2000 + runner))));
    expect(new Set(finishes.map((finished) => `${finished!.status}@${finished!.finished_at!.toISOString()}`)).size).toBe(1);
    const stored = await repository.find(scope, group._id);
    expect(stored).toMatchObject({ status: finishes[0]!.status, escalated: true, started_at: starts[0] });
  });

  it('never shows a group to another business', async () => {
    const group = await newGroup(1);
    await repository.recordActionResult(scope, group._id, 0, { status: 'succeeded', error: null, finishedAt: at(0) });
    expect(await repository.find(businessScope(randomUUID()), group._id)).toBeNull();
  });
});
