import { type Action, isAiTriggeringAction } from '@cmsg/api-schemas';
import { CatalogError, toCatalogError } from '@cmsg/errors';
import type { AiEmployee, Caller, ConversationContext, ObjectRef } from '@cmsg/proto';
import { assertVisionAvailable, assertWalletOpen } from '../ai/ai-guards';
import type { ConversationActionsPort } from '../ports';
import { assertDepthAllows } from './action-executor';

export interface PreflightInput {
  caller: Caller;
  context: ConversationContext;
  actions: readonly Action[];
  /** Depth of the command the group will travel in (0 from the public API). */
  depth: number;
}

/**
 * SPEC 4.3 rules 1 and 2, before anything runs: one vision guard for a group with AI-triggering
 * actions, then for each of them the employee is resolved and the wallet and depth guards run.
 * The first failure rejects the whole group; its message names the action (`actions[2] (run_ai): ...`).
 *
 * An action without an explicit employee uses the one assigned at that point of the group: earlier
 * assign_ai_employee / unassign_ai actions of the same group count, so [assign, run_ai] is valid on a
 * human-owned conversation. Non-AI actions are not checked here (rule 3).
 */
export async function runPreflight(actions: Pick<ConversationActionsPort, 'resolveAiEmployee'>, input: PreflightInput): Promise<void> {
  const firstAi = input.actions.findIndex(isAiTriggeringAction);
  if (firstAi < 0) return;
  await named(input.actions, firstAi, async () => assertVisionAvailable(input.context));

  const resolved = new Map<string, Promise<AiEmployee>>();
  const resolve = (ref: ObjectRef) => {
    const key = JSON.stringify([ref.uuid ?? null, ref.name?.toLowerCase() ?? null]);
    if (!resolved.has(key)) resolved.set(key, actions.resolveAiEmployee({ caller: input.caller, ai_employee: ref }));
    return resolved.get(key)!;
  };
  const guardAiAction = async (ref: ObjectRef) => {
    assertWalletOpen(await resolve(ref));
    assertDepthAllows(input.depth);
  };

  let assigned: ObjectRef | undefined = input.context.ai_employee_uuid ? { uuid: input.context.ai_employee_uuid } : undefined;
  for (const [index, action] of input.actions.entries()) {
    switch (action.type) {
      case 'run_ai':
        await named(input.actions, index, async () => {
          const ref = action.ai_employee ?? assigned;
          if (!ref) throw new CatalogError('INVALID_ASSIGNEE_FOR_RUN_AI', 'The conversation is human-owned and no ai_employee was given.');
          await guardAiAction(ref);
        });
        break;
      case 'ai_assistance':
        await named(input.actions, index, () => guardAiAction(action.ai_employee));
        break;
      case 'assign_ai_employee':
        if (action.run) await named(input.actions, index, () => guardAiAction(action.ai_employee));
        assigned = action.ai_employee;
        break;
      case 'unassign_ai':
        assigned = undefined;
        break;
      default:
        break;
    }
  }
}

/** Runs a check of one action; its catalog error comes back prefixed with the action's position and type. */
async function named(actions: readonly Action[], index: number, check: () => Promise<void>): Promise<void> {
  try {
    await check();
  } catch (error) {
    const failure = toCatalogError(error);
    throw new CatalogError(failure.code, `actions[${index}] (${actions[index]!.type}): ${failure.message}`, {
      httpStatus: failure.httpStatus,
      cause: error,
    });
  }
}
