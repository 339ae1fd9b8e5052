import type { Collection } from 'mongodb';
import { type BusinessScope, businessScope, scopedFilter } from '../shared/business-scope';
import { isDuplicateKeyError } from '../shared/duplicate-key';
import type { OutboxEntry } from '../shared/outbox-entry.schema';
import {
  type ActionErrorRecord,
  type ActionGroupEntity,
  FINAL_ACTION_STATUSES,
  type FinalActionStatus,
  type GroupStatus,
  isFinalActionStatus,
} from './action-group.entity';
import { ActionGroupModel } from './action-group.schema';

export interface ActionResultUpdate {
  status: FinalActionStatus;
  error: ActionErrorRecord | null;
  finishedAt: Date;
  /** Written with the result when the action was not marked running when it started (consecutive changes applied in one call). */
  startedAt?: Date;
  /** The next action starts right away: marked running in the same update, if it is still pending. */
  startNext?: { index: number; at: Date };
  /** The entry recording this result (action.failed), pushed only by the update that records it. */
  event?: OutboxEntry;
}

/** The last action's result, written with the group's finish (recordLastResultAndFinish). */
export type LastActionResult = Pick<ActionResultUpdate, 'status' | 'error' | 'finishedAt'>;

/** The group's final status, when it was set and its action_group.finished entry. */
export interface GroupFinish {
  status: Exclude<GroupStatus, 'processing'>;
  at: Date;
  event: OutboxEntry;
}

/** One of the results recordActionResults writes together: no entry, no next start of its own. */
export type IndexedActionResult = Omit<ActionResultUpdate, 'startNext' | 'event'> & { index: number };

/** The result that counts: this caller's, or the one another runner recorded first. */
export interface RecordedResult {
  status: FinalActionStatus;
  error: ActionErrorRecord | null;
  finishedAt: Date;
}

/**
 * The array filter of an action that has no result yet: a recorded result is never replaced.
 * STATUS_LAST: every update writes an action's `status` after its other fields. The filter tests
 * `status`, and the local server evaluates it again for each path after applying the previous
 * ones (MongoDB evaluates it once, on the document before the update); written first, the status
 * would stop the other fields of the same element from being written there.
 */
const unfinished = (identifier: string, index: number) => ({ [`${identifier}.index`]: index, [`${identifier}.status`]: { $nin: FINAL_ACTION_STATUSES } });

/**
 * Action groups (collection action_groups). A group is one document and each change is one atomic
 * update of it: an action's state by position with `arrayFilters` (its result is written only while
 * it has none), the first start with `$min`, the escalation and the final status once, each with
 * the outbox entry of the event it makes (docs/events.md). Every filter is the group's
 * `{business_id, _id}` (the finish adds `status`), each served by a unique index (action-group.schema.ts).
 */
export class ActionGroupRepository {
  async ensureIndexes(): Promise<void> {
    await ActionGroupModel.createIndexes();
  }

  /** Inserts the group unless it exists (the synchronous phase; the runner may have created it). */
  async createIfMissing(group: ActionGroupEntity): Promise<void> {
    try {
      await groups().insertOne(storedForm(group));
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  /**
   * The runner's first step, one round trip when the synchronous phase wrote the group: records
   * the group's first start (`$min` of a field absent until then, so the earliest start is kept
   * across re-runs and concurrent runners: the budget's origin), marks the first action running if
   * it is still pending, and answers the group as stored. A group not written yet (the synchronous
   * phase died after producing the command) is created from `group` first.
   */
  async start(group: ActionGroupEntity, at: Date): Promise<ActionGroupEntity> {
    const scope = businessScope(group.business_id);
    const update = () =>
      groups().findOneAndUpdate(scopedFilter(scope, { _id: group._id }), { $min: { started_at: at }, $set: runningFields('first', at) }, {
        returnDocument: 'after',
        arrayFilters: [{ 'first.index': 0, 'first.status': 'pending' }],
      });
    let stored = await update();
    if (!stored) {
      await this.createIfMissing(group);
      stored = await update();
    }
    if (!stored) throw new Error(`action group ${group._id} could not be started`);
    return entityOf(stored);
  }

  async find(scope: BusinessScope, uuid: string): Promise<ActionGroupEntity | null> {
    const stored = await groups().findOne(scopedFilter(scope, { _id: uuid }));
    return stored ? entityOf(stored) : null;
  }

  /** Informational (shown as pending): an action without a result may always run again after a crash. */
  async markActionRunning(scope: BusinessScope, uuid: string, index: number, at: Date): Promise<void> {
    await groups().updateOne(scopedFilter(scope, { _id: uuid }), { $set: runningFields('run', at) }, { arrayFilters: [unfinished('run', index)] });
  }

  /**
   * Records the results of several actions in one update (consecutive changes applied in one call),
   * each unless it has one, and answers the results that count, in the same order: as
   * recordActionResult, without an entry (a failure and its action.failed entry go through
   * recordActionResult). `startNext` as there. A result already recorded keeps its `started_at` too.
   */
  async recordActionResults(scope: BusinessScope, uuid: string, results: readonly IndexedActionResult[], startNext?: ActionResultUpdate['startNext']): Promise<RecordedResult[]> {
    const $set: Record<string, unknown> = Object.assign({}, ...results.map((result, k) => resultFields(`done${k}`, result)));
    const arrayFilters = results.map((result, k) => unfinished(`done${k}`, result.index));
    if (startNext) addNextStart($set, arrayFilters, startNext);
    const before = await groups().findOneAndUpdate(scopedFilter(scope, { _id: uuid }), { $set }, { returnDocument: 'before', arrayFilters, projection: RESULT_PROJECTION });
    return results.map((result) => resultThatCounts(before, uuid, result.index, result));
  }

  /**
   * Records the action's result unless it has one, and answers the result that counts: when
   * another runner of this group (a partition moving during a rebalance) recorded it first, that
   * one stands. The document before the update says which.
   */
  async recordActionResult(scope: BusinessScope, uuid: string, index: number, result: ActionResultUpdate): Promise<RecordedResult> {
    const $set = resultFields('done', result);
    const arrayFilters: Record<string, unknown>[] = [unfinished('done', index)];
    if (result.startNext) addNextStart($set, arrayFilters, result.startNext);
    // With an entry, the filter also requires the action to have no result yet, so the entry is
    // pushed only by the update that records it (arrayFilters alone would let the push through).
    const filter = result.event ? { _id: uuid, actions: { $elemMatch: { index, status: { $nin: FINAL_ACTION_STATUSES } } } } : { _id: uuid };
    const update = result.event ? { $set, $push: { outbox: result.event } } : { $set };
    const before =
      (await groups().findOneAndUpdate(scopedFilter(scope, filter), update, { returnDocument: 'before', arrayFilters, projection: RESULT_PROJECTION })) ??
      (result.event ? await groups().findOne(scopedFilter(scope, { _id: uuid }), { projection: RESULT_PROJECTION }) : null);
    return resultThatCounts(before, uuid, index, result);
  }

  /**
   * Sets the group's escalation flag with its action_group.escalated entry: true for the one caller
   * that set it (the update matches only while the flag is not set).
   */
  async markEscalated(scope: BusinessScope, uuid: string, event: OutboxEntry): Promise<boolean> {
    const result = await groups().updateOne(scopedFilter(scope, { _id: uuid, escalated: { $ne: true } }), { $set: { escalated: true }, $push: { outbox: event } });
    return result.modifiedCount === 1;
  }

  /**
   * The last action's result and the group's final status in one update, with its
   * action_group.finished entry: only while that action has no result and the group is processing.
   * Answers the finished group, or null when the update missed (another runner recorded the result
   * or finished the group first): the caller then records the result and finishes as usual.
   */
  async recordLastResultAndFinish(scope: BusinessScope, uuid: string, index: number, result: LastActionResult, finish: GroupFinish): Promise<ActionGroupEntity | null> {
    const finished = await groups().findOneAndUpdate(
      scopedFilter(scope, { _id: uuid, status: 'processing' as GroupStatus, actions: { $elemMatch: { index, status: { $nin: FINAL_ACTION_STATUSES } } } }),
      { $set: { ...resultFields('done', result), status: finish.status, finished_at: finish.at }, $push: { outbox: finish.event } },
      { returnDocument: 'after', arrayFilters: [unfinished('done', index)] },
    );
    return finished ? entityOf(finished) : null;
  }

  /**
   * Final status, set once while the group is processing, with its action_group.finished entry;
   * answers the group as finished (by whichever caller was first).
   */
  async finish(scope: BusinessScope, uuid: string, status: Exclude<GroupStatus, 'processing'>, at: Date, event: OutboxEntry): Promise<ActionGroupEntity | null> {
    const finished = await groups().findOneAndUpdate(
      scopedFilter(scope, { _id: uuid, status: 'processing' as GroupStatus }),
      { $set: { status, finished_at: at }, $push: { outbox: event } },
      { returnDocument: 'after' },
    );
    return finished ? entityOf(finished) : this.find(scope, uuid);
  }
}

/** What the use cases need of the repository (their specs give an in-memory one). */
export type ActionGroupStore = Pick<
  ActionGroupRepository,
  'createIfMissing' | 'start' | 'find' | 'markActionRunning' | 'recordActionResult' | 'recordActionResults' | 'recordLastResultAndFinish' | 'markEscalated' | 'finish'
>;

/**
 * The collection through the driver: the group's writes are few fields of one document, and
 * mongoose's document and update casting took a quarter of the runner's busy time (bench profile).
 * The documents are written whole by createIfMissing, with the shapes of action-group.entity.ts.
 */
function groups(): Collection<StoredGroup> {
  return ActionGroupModel.collection as unknown as Collection<StoredGroup>;
}

/** As stored: `started_at` and `finished_at` absent until set. */
type StoredGroup = Omit<ActionGroupEntity, 'started_at' | 'finished_at'> & { started_at?: Date | null; finished_at?: Date | null };

function storedForm(group: ActionGroupEntity): StoredGroup {
  const { started_at, finished_at, ...rest } = group;
  return { ...rest, ...(started_at ? { started_at } : {}), ...(finished_at ? { finished_at } : {}) };
}

function entityOf(stored: StoredGroup): ActionGroupEntity {
  return { ...stored, started_at: stored.started_at ?? null, finished_at: stored.finished_at ?? null };
}

/** What a result's update reads back of the group before it: each action's result. */
const RESULT_PROJECTION = { 'actions.status': 1, 'actions.error': 1, 'actions.finished_at': 1 };

/** One action's result in an update (its start too when given), `status` last: see STATUS_LAST. */
function resultFields(identifier: string, result: Pick<ActionResultUpdate, 'status' | 'error' | 'finishedAt' | 'startedAt'>): Record<string, unknown> {
  return {
    ...(result.startedAt ? { [`actions.$[${identifier}].started_at`]: result.startedAt } : {}),
    [`actions.$[${identifier}].error`]: result.error,
    [`actions.$[${identifier}].finished_at`]: result.finishedAt,
    [`actions.$[${identifier}].status`]: result.status,
  };
}

/** The next action started in the same update, if it is still pending. */
function addNextStart($set: Record<string, unknown>, arrayFilters: Record<string, unknown>[], next: NonNullable<ActionResultUpdate['startNext']>): void {
  Object.assign($set, runningFields('next', next.at));
  arrayFilters.push({ 'next.index': next.index, 'next.status': 'pending' });
}

/** The result that counts for the action at `index`, from the group before the update: this caller's, or one recorded first. */
function resultThatCounts(before: Pick<StoredGroup, 'actions'> | null, uuid: string, index: number, result: Pick<ActionResultUpdate, 'status' | 'error' | 'finishedAt'>): RecordedResult {
  const previous = before?.actions[index];
  if (!previous) throw new Error(`action group ${uuid} has no action ${index}`);
  if (!isFinalActionStatus(previous.status)) return { status: result.status, error: result.error, finishedAt: result.finishedAt };
  return { status: previous.status, error: previous.error ?? null, finishedAt: previous.finished_at ?? result.finishedAt };
}

/** `status` last: see STATUS_LAST. */
function runningFields(identifier: string, at: Date): Record<string, unknown> {
  return { [`actions.$[${identifier}].started_at`]: at, [`actions.$[${identifier}].error`]: null, [`actions.$[${identifier}].status`]: 'running' };
}
