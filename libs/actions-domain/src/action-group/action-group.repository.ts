import { businessScope, type BusinessScope, scopedFilter, isDuplicateKeyError } from '@cmsg/dal';
import { type ActionGroupDecision, ActionGroupDecisionModel, decisionIds } from './action-group-decision.model';
import { withDecisions } from './action-group-decisions';
import { type ActionErrorRecord, type ActionGroupEntity, ActionGroupModel, type ActionStatus, type GroupStatus } from './action-group.model';
import type { ActionGroupCommand } from './conversation-command';

export interface ActionResultUpdate {
  status: Extract<ActionStatus, 'succeeded' | 'noop' | 'failed' | 'skipped'>;
  error: ActionErrorRecord | null;
  finishedAt: Date;
  /** The next action starts right away: marked running in the same write. */
  startNext?: { index: number; at: Date };
}

/** The result as decided: this caller's, or the one another runner recorded first. */
export interface RecordedResult {
  status: ActionResultUpdate['status'];
  error: ActionErrorRecord | null;
  finishedAt: Date;
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
 * so no query can reach another tenant's group. What happens to a group is decided by inserting
 * fixed-_id documents (action-group-decision.model.ts); the group document keeps the submitted
 * actions and mirrors the decisions (array positions as `actions.<i>`: FerretDB 1.x has no `$`).
 */
export class ActionGroupRepository {
  /** Inserts the group unless it exists: the synchronous phase and the runner both call it. */
  async createIfMissing(group: ActionGroupEntity): Promise<void> {
    try {
      await ActionGroupModel.create(group);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  /** createIfMissing, then the group as stored and decided (the runner's first step). */
  async open(group: ActionGroupEntity): Promise<ActionGroupEntity> {
    await this.createIfMissing(group);
    const stored = await this.find(businessScope(group.business_id), group._id);
    if (!stored) throw new Error(`action group ${group._id} could not be opened`);
    return stored;
  }

  async find(scope: BusinessScope, uuid: string): Promise<ActionGroupEntity | null> {
    const [group, decisions] = await Promise.all([
      ActionGroupModel.findOne(scopedFilter(scope, { _id: uuid })).lean<ActionGroupEntity>(),
      ActionGroupDecisionModel.find(scopedFilter(scope, { group_id: uuid })).lean<ActionGroupDecision[]>(),
    ]);
    return group ? withDecisions(group, decisions) : null;
  }

  /** The first run's start, kept across re-runs: the budget's origin. */
  async markStarted(scope: BusinessScope, uuid: string, at: Date): Promise<Date> {
    const decided = await this.decide(scope, { _id: decisionIds.started(uuid), group_id: uuid, kind: 'started', at });
    await ActionGroupModel.updateOne(scopedFilter(scope, { _id: uuid }), { $set: { started_at: decided.at } });
    return decided.at;
  }

  /** Informational (shown as pending): a run may always start again after a crash. */
  async markActionRunning(scope: BusinessScope, uuid: string, index: number, at: Date): Promise<void> {
    await ActionGroupModel.updateOne(scopedFilter(scope, { _id: uuid }), {
      $set: { [`actions.${index}.status`]: 'running', [`actions.${index}.started_at`]: at, [`actions.${index}.error`]: null },
    });
  }

  /** Records the action's result once: answers the result that counts, which another runner may have recorded first. */
  async recordActionResult(scope: BusinessScope, uuid: string, index: number, result: ActionResultUpdate & { startedAt?: Date | null }): Promise<RecordedResult> {
    const decided = await this.decide(scope, {
      _id: decisionIds.result(uuid, index),
      group_id: uuid,
      kind: 'result',
      index,
      status: result.status,
      error: result.error,
      started_at: result.startedAt ?? null,
      at: result.finishedAt,
    });
    const recorded: RecordedResult = { status: decided.status as RecordedResult['status'], error: decided.error ?? null, finishedAt: decided.at };
    const next = recorded.status === 'failed' ? undefined : result.startNext;
    await ActionGroupModel.updateOne(scopedFilter(scope, { _id: uuid }), {
      $set: {
        [`actions.${index}.status`]: recorded.status,
        [`actions.${index}.error`]: recorded.error,
        [`actions.${index}.finished_at`]: recorded.finishedAt,
        ...(next ? { [`actions.${next.index}.status`]: 'running', [`actions.${next.index}.started_at`]: next.at, [`actions.${next.index}.error`]: null } : {}),
      },
    });
    return recorded;
  }

  /** True for the one caller that recorded the group's escalation. */
  async markEscalated(scope: BusinessScope, uuid: string): Promise<boolean> {
    const won = await this.insertDecision(scope, { _id: decisionIds.escalated(uuid), group_id: uuid, kind: 'escalated', at: new Date() });
    await ActionGroupModel.updateOne(scopedFilter(scope, { _id: uuid }), { $set: { escalated: true } });
    return won;
  }

  /** Final status, once; answers the group as finished (with the status decided first). */
  async finish(scope: BusinessScope, uuid: string, status: Exclude<GroupStatus, 'processing'>, at: Date): Promise<ActionGroupEntity | null> {
    const decided = await this.decide(scope, { _id: decisionIds.finished(uuid), group_id: uuid, kind: 'finished', status, at });
    await ActionGroupModel.updateOne(scopedFilter(scope, { _id: uuid }), { $set: { status: decided.status, finished_at: decided.at } });
    return this.find(scope, uuid);
  }

  /** Inserts the decision, or reads the one inserted first: every caller answers the same. */
  private async decide(scope: BusinessScope, decision: DecisionInput): Promise<ActionGroupDecision> {
    if (await this.insertDecision(scope, decision)) return this.complete(scope, decision);
    const first = await ActionGroupDecisionModel.findOne(scopedFilter(scope, { _id: decision._id })).lean<ActionGroupDecision>();
    if (!first) throw new Error(`decision ${decision._id} exists under another business`);
    return first;
  }

  private async insertDecision(scope: BusinessScope, decision: DecisionInput): Promise<boolean> {
    try {
      await ActionGroupDecisionModel.create(this.complete(scope, decision));
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  private complete(scope: BusinessScope, decision: DecisionInput): ActionGroupDecision {
    return { index: null, status: null, error: null, started_at: null, ...decision, business_id: scope.businessId };
  }
}

type DecisionInput = Omit<ActionGroupDecision, 'business_id' | 'index' | 'status' | 'error' | 'started_at'> & Partial<Pick<ActionGroupDecision, 'index' | 'status' | 'error' | 'started_at'>>;

/** What the use cases need of the repository (tests give an in-memory one). */
export type ActionGroupStore = Pick<
  ActionGroupRepository,
  'createIfMissing' | 'open' | 'find' | 'markStarted' | 'markActionRunning' | 'recordActionResult' | 'markEscalated' | 'finish'
>;
