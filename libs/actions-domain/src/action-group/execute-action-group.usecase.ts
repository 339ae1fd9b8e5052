import { CatalogError, isCatalogError, toCatalogError } from '@cmsg/errors';
import {
  type ActionErrorRecord,
  type ActionGroupEntity,
  type ActionGroupStore,
  type ActionResultUpdate,
  businessScope,
  type BusinessScope,
  type FinalActionStatus,
  isFinalActionStatus,
  type RecordedResult,
} from '@cmsg/dal';
import type { OutboxRecorder } from '@cmsg/events';
import { type Logger, cmsgMetrics } from '@cmsg/platform';
import { AI_RUN_BUDGET_MS, GROUP_BUDGET_MS } from '../limits';
import type { Clock, ConversationActionsPort } from '../ports';
import { actionFailedEntry, actionGroupEscalatedEntry, actionGroupFinishedEntry } from './action-group-events';
import { type ActionExecutor, type ChangeOutcome, isConversationChange } from './action-executor';
import type { ActionGroupCommand } from './conversation-command';
import { isEscalatingCode, isTransientFailure } from './failure-policy';
import { initialGroupDocument } from './initial-group-document';

export interface ExecuteActionGroupDependencies {
  groups: ActionGroupStore;
  executor: ActionExecutor;
  actions: Pick<ConversationActionsPort, 'escalate'>;
  /**
   * Records the action.failed, action_group.finished and action_group.escalated entries the group's
   * writes push: the events (fanned out to the webhook endpoints) and the escalation's timeline row.
   */
  events: OutboxRecorder;
  clock: Clock;
  logger: Logger;
  /** Defaults: 800 s per group, 300 s per AI pipeline (SPEC 8). */
  groupBudgetMs?: number;
  aiRunBudgetMs?: number;
}

/** Thrown when this process gives a command up (partition revoked, shutdown): its next owner resumes it. */
export class CommandAbandonedError extends Error {
  constructor(groupUuid: string) {
    super(`action group ${groupUuid} abandoned by this process; its next owner resumes it`);
    this.name = 'CommandAbandonedError';
  }
}

/** Escalation reason of a failed group (SPEC 3.1). */
export const ACTION_SET_FAILED = 'action_set_failed';

/** What running one action came to, before it is recorded. */
type ActionOutcome = { status: 'succeeded' | 'noop' } | { status: 'failed'; error: ActionErrorRecord };

/**
 * Runs an action group in order (SPEC 4.3 rules 4 to 6), resuming where a previous run stopped:
 * actions with a recorded result are not run again; one left `running` by a crash runs again with
 * the same operation id (`<group>:<index>`), which the conversations service uses to never send
 * or charge twice. Every action ends with a recorded result.
 *
 * Budget: 800 s from the group's first start. An action that cannot start within it fails with
 * UPDATE_FAILED (the change could not be applied in time: a server-side failure, so it escalates
 * and a human takes over a conversation whose automation stalled) and the rest are skipped; an AI
 * pipeline gets at most what is left, and one cut short fails with AI_EXECUTION_FAILED.
 */
export class ExecuteActionGroup {
  private readonly groupBudgetMs: number;
  private readonly aiRunBudgetMs: number;

  constructor(private readonly dependencies: ExecuteActionGroupDependencies) {
    this.groupBudgetMs = dependencies.groupBudgetMs ?? GROUP_BUDGET_MS;
    this.aiRunBudgetMs = dependencies.aiRunBudgetMs ?? AI_RUN_BUDGET_MS;
  }

  async execute(command: ActionGroupCommand, signal: AbortSignal): Promise<void> {
    const { groups, clock } = this.dependencies;
    const scope = businessScope(command.business_id);
    // The copy below is kept in step with every write, so the loop reads the database once.
    const runStart = clock.now();
    const group = await groups.start(initialGroupDocument(command), runStart);
    await this.recordLeftBehind(scope, group);
    // Finished by an earlier run that died before its offset was committed.
    if (group.status !== 'processing') return;
    // Actions this run already marked running in another write (the start, the previous result).
    const markedRunning = new Set<number>();
    const first = group.actions[0];
    if (first?.status === 'running' && first.started_at?.getTime() === runStart.getTime()) markedRunning.add(0);
    const startedAt = group.started_at ?? runStart;
    const deadline = startedAt.getTime() + this.groupBudgetMs;
    let stopped = false;
    for (let index = 0; index < group.actions.length; ) {
      const record = group.actions[index]!;
      // Partition revoked or shutting down: the next owner resumes from what is recorded.
      if (signal.aborted) throw new CommandAbandonedError(group._id);
      if (isFinalActionStatus(record.status)) {
        if (record.status === 'failed') {
          // Its escalation may not have happened before a crash: it is idempotent.
          await this.afterFailure(scope, group, record.index);
          if (command.stop_on_error) stopped = true;
        }
        index += 1;
        continue;
      }
      if (stopped) {
        const recorded = await this.record(scope, group, record.index, { status: 'skipped', error: null, finishedAt: clock.now() });
        cmsgMetrics.actionFinished(record.type, 'skipped', 0);
        // Another runner recorded a failure of this action first: its effects are owed as well.
        if (recorded.status === 'failed') await this.afterFailure(scope, group, record.index);
        index += 1;
        continue;
      }
      const outOfBudget = clock.now().getTime() >= deadline;
      const changes = outOfBudget ? [] : this.consecutiveChanges(command, group, index);
      let failedIndex: number | undefined;
      if (changes.length > 1) {
        const ran = await this.runChanges(scope, command, group, changes, deadline, signal, markedRunning);
        failedIndex = ran.failedIndex;
        index += ran.recorded;
      } else {
        const failed = outOfBudget ? await this.recordBudgetExhausted(scope, group, index) : await this.runAction(scope, command, group, index, deadline, signal, markedRunning);
        if (failed) failedIndex = index;
        index += 1;
      }
      if (failedIndex !== undefined) {
        await this.afterFailure(scope, group, failedIndex);
        // Out of budget nothing else may start, whatever stop_on_error says.
        if (command.stop_on_error || outOfBudget) stopped = true;
      }
    }
    // Finished already when its last action's result was written with the final status (runAction).
    const final = group.status === 'processing' ? ((await this.finish(scope, group)) ?? group) : group;
    this.dependencies.logger.info({ action_group: group._id, conversation_uuid: group.conversation_id, status: final.status, escalated: final.escalated }, 'action group finished');
  }

  /**
   * Dead-letter path: the command failed every attempt (e.g. a dependency down for minutes). The
   * action under way fails with UPDATE_FAILED, the rest are skipped, and the group finishes.
   */
  async abandon(command: ActionGroupCommand, cause: unknown): Promise<void> {
    const { groups, clock, logger } = this.dependencies;
    const scope = businessScope(command.business_id);
    const group = await groups.start(initialGroupDocument(command), clock.now());
    if (group.status !== 'processing') return;
    const reason = isCatalogError(cause) ? `${cause.code}: ${cause.message}` : String(cause);
    let failedOne = false;
    for (const record of group.actions) {
      if (isFinalActionStatus(record.status)) continue;
      const error = failedOne ? null : { code: 'UPDATE_FAILED', message: `The action could not be completed after repeated attempts (${reason}).` };
      const recorded = await this.record(scope, group, record.index, { status: error ? 'failed' : 'skipped', error, finishedAt: clock.now() });
      if (recorded.status === 'failed') {
        failedOne = true;
        await this.afterFailure(scope, group, record.index).catch((effectError: unknown) =>
          logger.error({ err: effectError, action_group: group._id }, 'escalation of an abandoned group failed'),
        );
      }
    }
    await this.finish(scope, group);
  }

  /** Runs one action and records its result; answers the failure, if any. */
  private async runAction(
    scope: BusinessScope,
    command: ActionGroupCommand,
    group: ActionGroupEntity,
    index: number,
    deadline: number,
    signal: AbortSignal,
    markedRunning: Set<number>,
  ): Promise<boolean> {
    const { groups, executor, clock } = this.dependencies;
    // Marked running with the previous action's result when it followed one straight away.
    if (!markedRunning.delete(index)) {
      const startedAt = clock.now();
      await groups.markActionRunning(scope, group._id, index, startedAt);
      Object.assign(group.actions[index]!, { status: 'running', started_at: startedAt, error: null });
    }
    let outcome: ActionOutcome;
    try {
      const status = await executor.run(command.actions[index]!, {
        caller: { business_id: command.business_id, token_uuid: command.token_uuid },
        conversationUuid: command.conversation_uuid,
        operationId: `${group._id}:${index}`,
        depth: command.depth,
        aiBudgetMs: Math.min(this.aiRunBudgetMs, deadline - clock.now().getTime()),
        signal,
        inReplyToMessageUuid: command.in_reply_to_message_uuid,
      });
      outcome = { status };
    } catch (error) {
      if (signal.aborted) throw new CommandAbandonedError(group._id);
      const failure: CatalogError = toCatalogError(error);
      // Outcome unknown (a dependency did not answer): leave it running; the retry runs it again.
      if (isTransientFailure(failure)) throw failure;
      if (failure.code === 'UNKNOWN_ERROR') this.dependencies.logger.error({ err: error, action_group: group._id, index }, 'action failed unexpectedly');
      outcome = { status: 'failed', error: { code: failure.code, message: failure.message } };
    }
    const finishedAt = clock.now();
    const finishedTheGroup = outcome.status !== 'failed' && (await this.recordLastResultAndFinish(scope, group, index, { status: outcome.status, error: null, finishedAt }));
    const status = finishedTheGroup ? outcome.status : await this.recordStartingNext(scope, group, index, outcome, finishedAt, deadline, markedRunning);
    const startedAt = group.actions[index]!.started_at;
    if (startedAt) cmsgMetrics.actionFinished(command.actions[index]!.type, status, (finishedAt.getTime() - startedAt.getTime()) / 1000);
    return status === 'failed';
  }

  /**
   * Records the action's result; on the common path (success, time left, next action not started
   * yet) the same write starts the next action. After a failure the next one may be skipped instead.
   * Answers the result that counts.
   */
  private async recordStartingNext(
    scope: BusinessScope,
    group: ActionGroupEntity,
    index: number,
    outcome: ActionOutcome,
    finishedAt: Date,
    deadline: number,
    markedRunning: Set<number>,
  ): Promise<FinalActionStatus> {
    const next = group.actions[index + 1];
    const startNext = outcome.status !== 'failed' && next?.status === 'pending' && finishedAt.getTime() < deadline ? { index: index + 1, at: finishedAt } : undefined;
    const recorded = await this.record(scope, group, index, { status: outcome.status, error: outcome.status === 'failed' ? outcome.error : null, finishedAt, startNext });
    if (startNext && recorded.status !== 'failed') markedRunning.add(startNext.index);
    return recorded.status;
  }

  /**
   * The indexes of the changes of the conversation's state alone (isConversationChange) that follow
   * one another from `from` with no result yet: the executor applies them in one call.
   */
  private consecutiveChanges(command: ActionGroupCommand, group: ActionGroupEntity, from: number): number[] {
    const indexes: number[] = [];
    for (let index = from; index < group.actions.length; index++) {
      if (isFinalActionStatus(group.actions[index]!.status) || !isConversationChange(command.actions[index]!)) break;
      indexes.push(index);
    }
    return indexes;
  }

  /**
   * Applies consecutive changes in one call and records their results in one write (a failure, the
   * last change the service applied, in one more, with its action.failed entry). Each change's start
   * and end are placed from the call's start by the time the service took for each (changeTimes);
   * those not marked running before the call (by the group's start or the previous result) get
   * their start written with their result (an action without a result runs again after a crash,
   * marked running or not). A change whose outcome is unknown (a dependency did not answer) stays
   * without a result and the command is retried, after the results before it are recorded. A
   * failure of the call itself, or a call that answered nothing, counts as its first change's. A
   * call that answered after the command was given up has its results recorded (they were
   * applied); the loop then stops.
   */
  private async runChanges(
    scope: BusinessScope,
    command: ActionGroupCommand,
    group: ActionGroupEntity,
    indexes: number[],
    deadline: number,
    signal: AbortSignal,
    markedRunning: Set<number>,
  ): Promise<{ recorded: number; failedIndex?: number }> {
    const { groups, executor, clock } = this.dependencies;
    const startedAt = clock.now();
    // Not marked running by a write of their own: their start is written with their result.
    const unmarked = new Set(indexes.filter((index) => !markedRunning.delete(index)));
    let outcomes: ChangeOutcome[];
    try {
      const changes = indexes.map((index) => ({ action: command.actions[index]!, operationId: `${group._id}:${index}` }));
      outcomes = await executor.applyChanges(changes, { caller: { business_id: command.business_id, token_uuid: command.token_uuid }, conversationUuid: command.conversation_uuid });
    } catch (error) {
      if (signal.aborted) throw new CommandAbandonedError(group._id);
      outcomes = [{ status: 'failed', error: toCatalogError(error), durationMs: 0 }];
    }
    if (outcomes.length === 0) outcomes = [{ status: 'failed', error: new CatalogError('UPDATE_FAILED', 'The conversations service answered no result for the changes.'), durationMs: 0 }];
    const answeredAt = clock.now();
    const times = changeTimes(startedAt, answeredAt, outcomes);
    const startOf = (index: number, k: number) => (unmarked.has(index) ? { startedAt: times[k]!.startedAt } : {});
    const unknownAt = outcomes.findIndex((outcome) => outcome.status === 'failed' && isTransientFailure(outcome.error));
    const unknown = outcomes[unknownAt];
    const known = unknownAt >= 0 ? outcomes.slice(0, unknownAt) : outcomes;
    const last = known.at(-1);
    const failure = last?.status === 'failed' ? { k: known.length - 1, index: indexes[known.length - 1]!, error: last.error } : undefined;
    const succeeded = (failure ? known.slice(0, -1) : known).map((outcome, k) => ({
      index: indexes[k]!,
      status: outcome.status as 'succeeded' | 'noop',
      error: null,
      finishedAt: times[k]!.finishedAt,
      ...startOf(indexes[k]!, k),
    }));
    const afterAll = indexes.at(-1)! + 1;
    // Every change applied and time left: the action after them starts in the same write.
    const startNext =
      !failure && !unknown && !signal.aborted && succeeded.length === indexes.length && group.actions[afterAll]?.status === 'pending' && answeredAt.getTime() < deadline
        ? { index: afterAll, at: answeredAt }
        : undefined;
    if (succeeded.length > 0) {
      const recorded = await groups.recordActionResults(scope, group._id, succeeded, startNext);
      let anyFailed = false;
      recorded.forEach((result, k) => {
        const index = succeeded[k]!.index;
        Object.assign(group.actions[index]!, { status: result.status, error: result.error, finished_at: result.finishedAt });
        cmsgMetrics.actionFinished(command.actions[index]!.type, result.status, known[k]!.durationMs / 1000);
        anyFailed ||= result.status === 'failed';
      });
      if (startNext && !anyFailed) {
        Object.assign(group.actions[startNext.index]!, { status: 'running', started_at: startNext.at, error: null });
        markedRunning.add(startNext.index);
      }
      // Another runner recorded one of them failed first: its effects are owed, and this run goes on from it.
      const adopted = recorded.findIndex((result) => result.status === 'failed');
      if (adopted >= 0) return { recorded: adopted + 1, failedIndex: succeeded[adopted]!.index };
    }
    if (unknown?.status === 'failed') throw unknown.error;
    if (failure) {
      if (failure.error.code === 'UNKNOWN_ERROR') this.dependencies.logger.error({ err: failure.error, action_group: group._id, index: failure.index }, 'action failed unexpectedly');
      const finishedAt = times[failure.k]!.finishedAt;
      const recorded = await this.record(scope, group, failure.index, { status: 'failed', error: { code: failure.error.code, message: failure.error.message }, finishedAt, ...startOf(failure.index, failure.k) });
      cmsgMetrics.actionFinished(command.actions[failure.index]!.type, recorded.status, known[failure.k]!.durationMs / 1000);
      return { recorded: known.length, ...(recorded.status === 'failed' ? { failedIndex: failure.index } : {}) };
    }
    return { recorded: known.length };
  }

  /**
   * Records the result and answers the one that counts: when another runner of this group (a
   * rebalance) recorded this action first, its result stands and this run goes on from it. A
   * failure carries its action.failed entry, pushed only by the write that records it.
   */
  private async record(scope: BusinessScope, group: ActionGroupEntity, index: number, result: ActionResultUpdate): Promise<RecordedResult> {
    const event = result.status === 'failed' ? actionFailedEntry(group, index, result.error, result.finishedAt) : undefined;
    const recorded = await this.dependencies.groups.recordActionResult(scope, group._id, index, { ...result, ...(event ? { event } : {}) });
    // This write recorded the failure (another runner's result would carry its own time), so its entry is in the outbox.
    if (event && recorded.status === 'failed' && recorded.finishedAt.getTime() === result.finishedAt.getTime()) {
      await this.dependencies.events.recordQuietly('action_groups', scope, group._id, [event]);
    }
    Object.assign(group.actions[index]!, { status: recorded.status, error: recorded.error, finished_at: recorded.finishedAt });
    if (result.startNext && recorded.status !== 'failed') Object.assign(group.actions[result.startNext.index]!, { status: 'running', started_at: result.startNext.at, error: null });
    return recorded;
  }

  private async recordBudgetExhausted(scope: BusinessScope, group: ActionGroupEntity, index: number): Promise<boolean> {
    const error = { code: 'UPDATE_FAILED', message: `Not started: the action group used up its ${this.groupBudgetMs / 1000} s budget.` };
    return (await this.record(scope, group, index, { status: 'failed', error, finishedAt: this.dependencies.clock.now() })).status === 'failed';
  }

  /**
   * A failed action's effect beyond its action.failed event (pushed by the write that recorded the
   * failure): the group's one escalation, idempotent.
   */
  private async afterFailure(scope: BusinessScope, group: ActionGroupEntity, index: number): Promise<void> {
    const { actions, groups, clock, logger } = this.dependencies;
    const error = group.actions[index]!.error;
    if (!error || !group.escalate_on_error || group.escalated || !isEscalatingCode(error.code)) return;
    // Escalate first, then flip the flag: a crash in between escalates again (a no-op while
    // pending), never loses the escalation.
    try {
      await actions.escalate({
        caller: { business_id: group.business_id, token_uuid: group.token_uuid },
        conversation_uuid: group.conversation_id,
        pending_reason: ACTION_SET_FAILED,
      });
    } catch (escalationError) {
      const failure = toCatalogError(escalationError);
      if (isTransientFailure(failure)) throw failure;
      logger.error({ err: escalationError, action_group: group._id }, 'escalation failed; the group is reported without it');
      return;
    }
    const escalated = actionGroupEscalatedEntry(group, error.code, clock.now());
    if (await groups.markEscalated(scope, group._id, escalated)) await this.dependencies.events.recordQuietly('action_groups', scope, group._id, [escalated]);
    group.escalated = true;
  }

  /**
   * When every other action has its result, this one's result and the group's final status in one
   * write (the common end of a group: a last action that did not fail, so no escalation comes
   * between its result and the finish). False when there is still an action to run, or when the
   * write missed (another runner of the group recorded first): the result is then recorded as usual.
   */
  private async recordLastResultAndFinish(scope: BusinessScope, group: ActionGroupEntity, index: number, result: { status: 'succeeded' | 'noop'; error: null; finishedAt: Date }): Promise<boolean> {
    if (!group.actions.every((action, other) => other === index || isFinalActionStatus(action.status))) return false;
    const actions = group.actions.map((action, other) => (other === index ? { ...action, status: result.status, error: null, finished_at: result.finishedAt } : action));
    const status = finalStatus({ ...group, actions });
    const event = actionGroupFinishedEntry({ ...group, actions }, status, result.finishedAt);
    const finished = await this.dependencies.groups.recordLastResultAndFinish(scope, group._id, index, result, { status, at: result.finishedAt, event });
    if (!finished) return false;
    Object.assign(group, { actions, status, finished_at: result.finishedAt });
    await this.dependencies.events.recordQuietly('action_groups', scope, group._id, [event]);
    return true;
  }

  /** The group's final status, once, with its action_group.finished entry (recorded by the call that set it). */
  private async finish(scope: BusinessScope, group: ActionGroupEntity): Promise<ActionGroupEntity | null> {
    const { groups, clock, events } = this.dependencies;
    const at = clock.now();
    const status = finalStatus(group);
    const event = actionGroupFinishedEntry(group, status, at);
    const final = await groups.finish(scope, group._id, status, at, event);
    // This write finished it (another runner's finish carries its own time), so its entry is in the outbox.
    if (final?.status === status && final.finished_at?.getTime() === at.getTime()) await events.recordQuietly('action_groups', scope, group._id, [event]);
    return final;
  }

  /**
   * Entries an earlier run of the group left unrecorded (it died right after a write) are recorded
   * now rather than at the relay's next pass; recording is idempotent, so a runner racing this one
   * changes nothing.
   */
  private async recordLeftBehind(scope: BusinessScope, group: ActionGroupEntity): Promise<void> {
    if (group.outbox?.length) await this.dependencies.events.recordQuietly('action_groups', scope, group._id, group.outbox);
  }
}

/**
 * Each change's start and end on this process's clock: one after another from the call's start, each
 * as long as the service took to apply it (whole milliseconds, floored on the running sum so that a
 * change never starts before the one before it ended), never past the call's answer.
 */
export function changeTimes(callStart: Date, answeredAt: Date, outcomes: readonly { durationMs: number }[]): { startedAt: Date; finishedAt: Date }[] {
  const origin = callStart.getTime();
  const at = (elapsedMs: number) => new Date(Math.min(origin + Math.floor(elapsedMs), answeredAt.getTime()));
  let elapsed = 0;
  return outcomes.map(({ durationMs }) => {
    const startedAt = at(elapsed);
    elapsed += durationMs;
    return { startedAt, finishedAt: at(elapsed) };
  });
}

/** Decided by the recorded results alone, so every runner of the group finishes it the same way. */
function finalStatus(group: ActionGroupEntity): 'succeeded' | 'failed' {
  return group.actions.some((action) => action.status === 'failed') ? 'failed' : 'succeeded';
}
