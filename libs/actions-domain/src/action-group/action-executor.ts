import type { Action } from '@cmsg/api-schemas';
import { assertUnreachable, CatalogError } from '@cmsg/errors';
import { publicSendActionToProto } from '@cmsg/message-codec';
import { AlreadyInStatePolicy, type Caller, type ChangeTagsResponse } from '@cmsg/proto';
import type { AiPipelines } from '../ai/ai-pipelines';
import { autoReplyStillDue } from '../ai/auto-reply';
import { MAX_ACTIONS_DEPTH } from '../limits';
import type { ConversationServices } from '../ports';
import { errorCodeOf } from './failure-policy';

/** What running one action came to; failures are thrown as catalog errors. */
export type ActionSuccess = 'succeeded' | 'noop';

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
    const { actions, conversations } = this.services;
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
      case 'assign_label':
        return tagChangeOutcome(await actions.assignTags({ caller, conversation, tags: action.tags, policy }));
      case 'remove_label':
        return tagChangeOutcome(await actions.removeTags({ caller, conversation, tags: action.tags, policy }));
      case 'assign_mailbox': {
        const response = await actions.assignMailbox({ caller, conversation, mailbox: action.mailbox, category: action.category, policy });
        return response.noop ? 'noop' : 'succeeded';
      }
      case 'context_note':
        await conversations.addNote({ caller, conversation, note: action.note, operation_id: context.operationId });
        return 'succeeded';
      case 'mark_resolved':
        await conversations.markResolved({ caller, conversation });
        return 'succeeded';
      case 'mark_pending':
        await conversations.markPending({ caller, conversation });
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
        if (action.run) assertDepthAllows(context.depth);
        const response = await actions.assignAiEmployee({
          caller,
          conversation,
          ai_employee: action.ai_employee,
          scheduled_message_action: action.scheduled_message_action,
          policy,
        });
        if (!action.run) return response.noop ? 'noop' : 'succeeded';
        const assigned = response.ai_employee?.uuid;
        await this.ai.run({ ...this.aiInput(context), employee: assigned ? { uuid: assigned } : action.ai_employee });
        return 'succeeded';
      }
      case 'unassign_ai': {
        const response = await actions.unassignAi({ caller, conversation, scheduled_message_action: action.scheduled_message_action, hand_to_human: false });
        return response.noop ? 'noop' : 'succeeded';
      }
      default:
        return assertUnreachable(action, 'Unknown action type');
    }
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
