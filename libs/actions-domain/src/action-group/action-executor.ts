import type { Action } from '@cmsg/api-schemas';
import { assertUnreachable, CatalogError } from '@cmsg/errors';
import { publicSendActionToProto } from '@cmsg/message-codec';
import { AlreadyInStatePolicy, type Caller, type ChangeTagsResponse, type ConversationChange, type ConversationChangeResult } from '@cmsg/proto';
import type { AiPipelines } from '../ai/ai-pipelines';
import { autoReplyStillDue } from '../ai/auto-reply';
import { MAX_ACTIONS_DEPTH } from '../limits';
import type { ConversationServices } from '../ports';
import { errorCodeOf } from './failure-policy';

/** What running one action came to; failures are thrown as catalog errors. */
export type ActionSuccess = 'succeeded' | 'noop';

/** What one change of a call of consecutive changes came to, and how long the service took to apply it. */
export type ChangeOutcome = ({ status: ActionSuccess } | { status: 'failed'; error: CatalogError }) & { durationMs: number };

/** The action types that change the conversation's state alone (no provider call, no AI), whatever their fields. */
const CHANGE_TYPES = ['assign_label', 'remove_label', 'assign_mailbox', 'context_note', 'mark_resolved', 'mark_pending', 'unassign_ai'] as const;
type ChangeAction = Extract<Action, { type: (typeof CHANGE_TYPES)[number] }>;

function hasChangeType(action: Action): action is ChangeAction {
  return (CHANGE_TYPES as readonly string[]).includes(action.type);
}

/** A change of the conversation's state alone (no provider call, no AI): consecutive ones share one call. */
export function isConversationChange(action: Action): boolean {
  return hasChangeType(action) || (action.type === 'assign_ai_employee' && !action.run);
}

export interface ActionRunContext {
  caller: Caller;
  conversationUuid: string;
  /** `<group uuid>:<index>`: repeated runs of the action never send or charge twice. */
  operationId: string;
  /** Depth of the command the action belongs to. */
  depth: number;
  /** Budget left for an AI pipeline: the smaller of 300 s and what remains of the group's 800 s. */
  aiBudgetMs: number;
  signal: AbortSignal;
  /** Set on the AI run a customer message queued: it is a no-op once that reply is no longer due. */
  inReplyToMessageUuid?: string;
}

/**
 * Runs one action through the conversation RPCs (SPEC 4.3, CONTRACT 4): each action type has
 * exactly one implementation, shared with the individual endpoints. A desired state that already
 * holds is a no-op (policy ALREADY_IN_STATE_NOOP).
 */
export class ActionExecutor {
  constructor(
    private readonly services: ConversationServices,
    private readonly ai: AiPipelines,
  ) {}

  async run(action: Action, context: ActionRunContext): Promise<ActionSuccess> {
    if (hasChangeType(action)) return this.runChange(action, context);
    const { actions } = this.services;
    const caller = context.caller;
    const conversation = { uuid: context.conversationUuid };
    const policy = AlreadyInStatePolicy.ALREADY_IN_STATE_NOOP;
    switch (action.type) {
      case 'send_message':
      case 'send_quick_reply_or_template':
        await actions.sendMessage({
          caller,
          conversation,
          operation_id: context.operationId,
          author: { type: 'api_token', uuid: caller.token_uuid },
          ...publicSendActionToProto(action),
        });
        return 'succeeded';
      case 'run_ai':
        assertDepthAllows(context.depth);
        if (context.inReplyToMessageUuid !== undefined) {
          const current = await actions.getConversationContext({ caller, conversation });
          if (!autoReplyStillDue(current, context.inReplyToMessageUuid)) return 'noop';
        }
        await this.ai.run({ ...this.aiInput(context), employee: action.ai_employee });
        return 'succeeded';
      case 'ai_assistance':
        assertDepthAllows(context.depth);
        await this.ai.assist({ ...this.aiInput(context), employee: action.ai_employee, prompt: action.prompt });
        return 'succeeded';
      case 'assign_ai_employee': {
        if (!action.run) return this.runChange(action, context);
        assertDepthAllows(context.depth);
        const response = await actions.assignAiEmployee({
          caller,
          conversation,
          ai_employee: action.ai_employee,
          scheduled_message_action: action.scheduled_message_action,
          policy,
        });
        const assigned = response.ai_employee?.uuid;
        await this.ai.run({ ...this.aiInput(context), employee: assigned ? { uuid: assigned } : action.ai_employee });
        return 'succeeded';
      }
      default:
        return assertUnreachable(action, 'Unknown action type');
    }
  }

  private async runChange(action: Action, context: ActionRunContext): Promise<ActionSuccess> {
    const [outcome] = await this.applyChanges([{ action, operationId: context.operationId }], context);
    if (!outcome) throw new CatalogError('UPDATE_FAILED', 'The conversations service answered no result for the change.');
    if (outcome.status === 'failed') throw outcome.error;
    return outcome.status;
  }

  /**
   * Consecutive changes in one call (ApplyChanges), in order: one outcome per change applied. The
   * service stops after the first that failed, so there may be fewer outcomes than changes.
   */
  async applyChanges(changes: readonly { action: Action; operationId: string }[], context: Pick<ActionRunContext, 'caller' | 'conversationUuid'>): Promise<ChangeOutcome[]> {
    const response = await this.services.actions.applyChanges({ changes: changes.map(({ action, operationId }) => changeRequestOf(action, operationId, context)) });
    return response.results.slice(0, changes.length).map(changeOutcomeOf);
  }

  private aiInput(context: ActionRunContext) {
    return {
      caller: context.caller,
      conversationUuid: context.conversationUuid,
      operationId: context.operationId,
      budgetMs: context.aiBudgetMs,
      signal: context.signal,
    };
  }
}

/** An AI-triggering action runs one level below its command (limits.ts). */
export function assertDepthAllows(depth: number): void {
  if (depth + 1 > MAX_ACTIONS_DEPTH) {
    throw new CatalogError('ACTIONS_DEPTH_EXCEEDED', `Chained AI actions exceed the maximum depth of ${MAX_ACTIONS_DEPTH} (this one would run at ${depth + 1}).`);
  }
}

/** The request of the RPC that applies the change on its own. A desired state that already holds is a no-op. */
function changeRequestOf(action: Action, operationId: string, context: Pick<ActionRunContext, 'caller' | 'conversationUuid'>): ConversationChange {
  const caller = context.caller;
  const conversation = { uuid: context.conversationUuid };
  const policy = AlreadyInStatePolicy.ALREADY_IN_STATE_NOOP;
  switch (action.type) {
    case 'assign_label':
      return { assign_tags: { caller, conversation, tags: action.tags, policy } };
    case 'remove_label':
      return { remove_tags: { caller, conversation, tags: action.tags, policy } };
    case 'assign_mailbox':
      return { assign_mailbox: { caller, conversation, mailbox: action.mailbox, category: action.category, policy } };
    case 'context_note':
      return { add_note: { caller, conversation, note: action.note, operation_id: operationId } };
    case 'mark_resolved':
      return { mark_resolved: { caller, conversation } };
    case 'mark_pending':
      return { mark_pending: { caller, conversation } };
    case 'assign_ai_employee':
      return { assign_ai_employee: { caller, conversation, ai_employee: action.ai_employee, scheduled_message_action: action.scheduled_message_action, policy } };
    case 'unassign_ai':
      return { unassign_ai: { caller, conversation, scheduled_message_action: action.scheduled_message_action, hand_to_human: false } };
    default:
      throw new CatalogError('INVALID_REQUEST', `${action.type} is not a change of the conversation's state alone.`);
  }
}

function changeOutcomeOf(result: ConversationChangeResult): ChangeOutcome {
  const durationMs = Math.max(0, result.duration_ms);
  try {
    return { status: changeSuccessOf(result), durationMs };
  } catch (error) {
    return { status: 'failed', error: error as CatalogError, durationMs };
  }
}

function changeSuccessOf(result: ConversationChangeResult): ActionSuccess {
  if (result.error) throw new CatalogError(errorCodeOf(result.error.code), result.error.message);
  if (result.tags) return tagChangeOutcome(result.tags);
  const noop = result.mailbox?.noop ?? result.ai_employee?.noop ?? result.unassign_ai?.noop ?? false;
  return noop ? 'noop' : 'succeeded';
}

/** Any tag that failed fails the action with its code; all no-ops make a no-op. */
function tagChangeOutcome(response: ChangeTagsResponse): ActionSuccess {
  const failed = response.results.find((result) => result.status === 'failed');
  if (failed) {
    const tag = failed.requested?.uuid ?? failed.requested?.name ?? failed.tag?.uuid ?? '?';
    const code = errorCodeOf(failed.error?.code ?? 'UPDATE_FAILED');
    throw new CatalogError(code, `Tag ${JSON.stringify(tag)}: ${failed.error?.message ?? 'the change failed'}`);
  }
  return response.results.length > 0 && response.results.every((result) => result.status === 'noop') ? 'noop' : 'succeeded';
}
