import type { UpdateQuery } from 'mongoose';
import { type BusinessScope, businessScope, scopedFilter } from '../shared/business-scope';
import { isDuplicateKeyError } from '../shared/duplicate-key';
import {
  type ActionErrorRecord,
  type ActionGroupEntity,
  type ActionRecord,
  FINAL_ACTION_STATUSES,
  type FinalActionStatus,
  type GroupStatus,
} from './action-group.entity';
import { ActionGroupModel } from './action-group.schema';

export interface ActionResultUpdate {
  status: FinalActionStatus;
  error: ActionErrorRecord | null;
  finishedAt: Date;
  /** The next action starts right away: marked running in the same update, if it is still pending. */
  startNext?: { index: number; at: Date };
}

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
 * it has none), the first start with `$min`, the escalation and the final status once. Every
 * filter is the group's `{business_id, _id}` (the finish adds `status`), each served by a unique
 * index (action-group.schema.ts).
 */
export class ActionGroupRepository {
  async ensureIndexes(): Promise<void> {
    await ActionGroupModel.createIndexes();
  }

  /** Inserts the group unless it exists (the synchronous phase; the runner may have created it). */
  async createIfMissing(group: ActionGroupEntity): Promise<void> {
    try {
      await ActionGroupModel.create(storedForm(group));
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  /** The group as stored, created from `group` first if missing (the runner's first step, one round trip). */
  async open(group: ActionGroupEntity): Promise<ActionGroupEntity> {
    const scope = businessScope(group.business_id);
    const { _id, business_id: _businessId, ...fields } = storedForm(group);
    try {
      const stored = await ActionGroupModel.findOneAndUpdate(scopedFilter(scope, { _id }), { $setOnInsert: fields }, { upsert: true, returnDocument: 'after' }).lean<StoredGroup>();
      if (stored) return entityOf(stored);
    } catch (error) {
      // Inserted at the same moment by the synchronous phase: it exists now.
      if (!isDuplicateKeyError(error)) throw error;
    }
    const stored = await this.find(scope, _id);
    if (!stored) throw new Error(`action group ${_id} could not be opened`);
    return stored;
  }

  async find(scope: BusinessScope, uuid: string): Promise<ActionGroupEntity | null> {
    const stored = await ActionGroupModel.findOne(scopedFilter(scope, { _id: uuid })).lean<StoredGroup>();
    return stored ? entityOf(stored) : null;
  }

  /**
   * The group's first start, kept across re-runs and concurrent runners (`$min` of a field absent
   * until then): the budget's origin. `runIndex`, when given, is marked running in the same update.
   */
  async markStarted(scope: BusinessScope, uuid: string, at: Date, runIndex?: number): Promise<Date> {
    const update: UpdateQuery<StoredGroup> = { $min: { started_at: at } };
    if (runIndex !== undefined) update.$set = runningFields('run', at);
    const stored = await ActionGroupModel.findOneAndUpdate(scopedFilter(scope, { _id: uuid }), update, {
      returnDocument: 'after',
      projection: { started_at: 1 },
      ...(runIndex !== undefined ? { arrayFilters: [unfinished('run', runIndex)] } : {}),
    }).lean<Pick<StoredGroup, 'started_at'>>();
    if (!stored?.started_at) throw new Error(`action group ${uuid} not found`);
    return stored.started_at;
  }

  /** Informational (shown as pending): an action without a result may always run again after a crash. */
  async markActionRunning(scope: BusinessScope, uuid: string, index: number, at: Date): Promise<void> {
    await ActionGroupModel.updateOne(scopedFilter(scope, { _id: uuid }), { $set: runningFields('run', at) }, { arrayFilters: [unfinished('run', index)] });
  }

  /**
   * Records the action's result unless it has one, and answers the result that counts: when
   * another runner of this group (a partition moving during a rebalance) recorded it first, that
   * one stands. The document before the update says which.
   */
  async recordActionResult(scope: BusinessScope, uuid: string, index: number, result: ActionResultUpdate): Promise<RecordedResult> {
    const $set: Record<string, unknown> = {
      'actions.$[done].error': result.error,
      'actions.$[done].finished_at': result.finishedAt,
      'actions.$[done].status': result.status,
    };
    const arrayFilters = [unfinished('done', index)];
    if (result.startNext) {
      Object.assign($set, runningFields('next', result.startNext.at));
      arrayFilters.push({ 'next.index': result.startNext.index, 'next.status': 'pending' } as never);
    }
    const before = await ActionGroupModel.findOneAndUpdate(scopedFilter(scope, { _id: uuid }), { $set }, {
      returnDocument: 'before',
      arrayFilters,
      projection: { 'actions.status': 1, 'actions.error': 1, 'actions.finished_at': 1 },
    }).lean<{ actions: Pick<ActionRecord, 'status' | 'error' | 'finished_at'>[] }>();
    const previous = before?.actions[index];
    if (!previous) throw new Error(`action group ${uuid} has no action ${index}`);
    if (!(FINAL_ACTION_STATUSES as readonly string[]).includes(previous.status)) return { status: result.status, error: result.error, finishedAt: result.finishedAt };
    return { status: previous.status as FinalActionStatus, error: previous.error ?? null, finishedAt: previous.finished_at ?? result.finishedAt };
  }

  /** True for the one caller that set the group's escalation flag (the document before says whether it was set). */
  async markEscalated(scope: BusinessScope, uuid: string): Promise<boolean> {
    const before = await ActionGroupModel.findOneAndUpdate(scopedFilter(scope, { _id: uuid }), { $set: { escalated: true } }, { returnDocument: 'before', projection: { escalated: 1 } }).lean<
      Pick<StoredGroup, 'escalated'>
    >();
    return before !== null && !before.escalated;
  }

  /** Final status, set once while the group is processing; answers the group as finished (by whichever caller was first). */
  async finish(scope: BusinessScope, uuid: string, status: Exclude<GroupStatus, 'processing'>, at: Date): Promise<ActionGroupEntity | null> {
    const finished = await ActionGroupModel.findOneAndUpdate(scopedFilter(scope, { _id: uuid, status: 'processing' }), { $set: { status, finished_at: at } }, { returnDocument: 'after' }).lean<StoredGroup>();
    return finished ? entityOf(finished) : this.find(scope, uuid);
  }
}

/** What the use cases need of the repository (their specs give an in-memory one). */
export type ActionGroupStore = Pick<ActionGroupRepository, 'createIfMissing' | 'open' | 'find' | 'markStarted' | 'markActionRunning' | 'recordActionResult' | 'markEscalated' | 'finish'>;

/** As stored: `started_at` and `finished_at` absent until set. */
type StoredGroup = Omit<ActionGroupEntity, 'started_at' | 'finished_at'> & { started_at?: Date | null; finished_at?: Date | null };

function storedForm(group: ActionGroupEntity): StoredGroup {
  const { started_at, finished_at, ...rest } = group;
  return { ...rest, ...(started_at ? { started_at } : {}), ...(finished_at ? { finished_at } : {}) };
}

function entityOf(stored: StoredGroup): ActionGroupEntity {
  return { ...stored, started_at: stored.started_at ?? null, finished_at: stored.finished_at ?? null };
}

/** `status` last: see STATUS_LAST. */
function runningFields(identifier: string, at: Date): Record<string, unknown> {
  return { [`actions.$[${identifier}].started_at`]: at, [`actions.$[${identifier}].error`]: null, [`actions.$[${identifier}].status`]: 'running' };
}
