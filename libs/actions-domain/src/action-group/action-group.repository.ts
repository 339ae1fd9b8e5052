import { type BusinessScope, scopedFilter } from '@cmsg/dal';
import { type ActionErrorRecord, type ActionGroupEntity, ActionGroupModel, type ActionStatus, type GroupStatus } from './action-group.model';
import type { ActionGroupCommand } from './conversation-command';

export interface ActionResultUpdate {
  status: Extract<ActionStatus, 'succeeded' | 'noop' | 'failed' | 'skipped'>;
  error: ActionErrorRecord | null;
  finishedAt: Date;
  /** The next action starts right away: marked running in the same write. */
  startNext?: { index: number; at: Date };
}

/** Two concurrent upserts of one _id: one inserts, the other may fail with E11000 and finds it. */
function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 11000;
}

/** The group document a command describes, before anything ran. */
export function initialGroupDocument(command: ActionGroupCommand): ActionGroupEntity {
  return {
    _id: command.group_uuid,
    business_id: command.business_id,
    conversation_id: command.conversation_uuid,
    token_uuid: command.token_uuid,
    request_id: command.request_id,
    source: command.source,
    depth: command.depth,
    stop_on_error: command.stop_on_error,
    escalate_on_error: command.escalate_on_error,
    status: 'processing',
    escalated: false,
    actions: command.actions.map((action, index) => ({
      index,
      type: action.type,
      params: action as Record<string, unknown>,
      status: 'pending',
      error: null,
      started_at: null,
      finished_at: null,
    })),
    created_at: new Date(command.created_at),
    started_at: null,
    finished_at: null,
  };
}

/**
 * Action groups of one business. Every method takes the BusinessScope and adds it to its filter,
 * so no query can reach another tenant's group. Array positions are addressed as `actions.<i>`
 * (FerretDB 1.x has no positional `$` operator).
 */
export class ActionGroupRepository {
  /** Inserts the group unless it exists: the synchronous phase and the runner both call it. */
  async createIfMissing(group: ActionGroupEntity): Promise<void> {
    const { _id, business_id, ...rest } = group;
    try {
      await ActionGroupModel.updateOne({ _id, business_id }, { $setOnInsert: rest }, { upsert: true });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
  }

  /** createIfMissing and find in one round trip: the group as stored (the runner's first step). */
  async open(group: ActionGroupEntity): Promise<ActionGroupEntity> {
    const { _id, business_id, ...rest } = group;
    let stored: ActionGroupEntity | null;
    try {
      stored = await ActionGroupModel.findOneAndUpdate({ _id, business_id }, { $setOnInsert: rest }, { upsert: true, new: true }).lean<ActionGroupEntity>();
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      stored = await ActionGroupModel.findOne({ _id, business_id }).lean<ActionGroupEntity>();
    }
    if (!stored) throw new Error(`action group ${_id} could not be opened`);
    return stored;
  }

  async find(scope: BusinessScope, uuid: string): Promise<ActionGroupEntity | null> {
    return ActionGroupModel.findOne(scopedFilter(scope, { _id: uuid })).lean<ActionGroupEntity>();
  }

  /** Sets started_at on the first run only; answers the effective start (the budget's origin). */
  async markStarted(scope: BusinessScope, uuid: string, at: Date): Promise<Date> {
    await ActionGroupModel.updateOne(scopedFilter(scope, { _id: uuid, started_at: null }), { $set: { started_at: at } });
    const group = await ActionGroupModel.findOne(scopedFilter(scope, { _id: uuid })).select({ started_at: 1 }).lean<{ started_at: Date | null }>();
    return group?.started_at ?? at;
  }

  async markActionRunning(scope: BusinessScope, uuid: string, index: number, at: Date): Promise<void> {
    await ActionGroupModel.updateOne(scopedFilter(scope, { _id: uuid }), {
      $set: { [`actions.${index}.status`]: 'running', [`actions.${index}.started_at`]: at, [`actions.${index}.error`]: null },
    });
  }

  async recordActionResult(scope: BusinessScope, uuid: string, index: number, result: ActionResultUpdate): Promise<void> {
    const next = result.startNext;
    await ActionGroupModel.updateOne(scopedFilter(scope, { _id: uuid }), {
      $set: {
        [`actions.${index}.status`]: result.status,
        [`actions.${index}.error`]: result.error,
        [`actions.${index}.finished_at`]: result.finishedAt,
        ...(next ? { [`actions.${next.index}.status`]: 'running', [`actions.${next.index}.started_at`]: next.at, [`actions.${next.index}.error`]: null } : {}),
      },
    });
  }

  /** Compare-and-set of the escalated flag: true for the one caller that flipped it. */
  async markEscalated(scope: BusinessScope, uuid: string): Promise<boolean> {
    const result = await ActionGroupModel.updateOne(scopedFilter(scope, { _id: uuid, escalated: false }), { $set: { escalated: true } });
    return result.modifiedCount === 1;
  }

  /** Final status, once; answers the group as finished (also when it already was). */
  async finish(scope: BusinessScope, uuid: string, status: Exclude<GroupStatus, 'processing'>, at: Date): Promise<ActionGroupEntity | null> {
    const finished = await ActionGroupModel.findOneAndUpdate(scopedFilter(scope, { _id: uuid, status: 'processing' }), { $set: { status, finished_at: at } }, { new: true }).lean<ActionGroupEntity>();
    return finished ?? this.find(scope, uuid);
  }
}

/** What the use cases need of the repository (tests give an in-memory one). */
export type ActionGroupStore = Pick<
  ActionGroupRepository,
  'createIfMissing' | 'open' | 'find' | 'markStarted' | 'markActionRunning' | 'recordActionResult' | 'markEscalated' | 'finish'
>;
