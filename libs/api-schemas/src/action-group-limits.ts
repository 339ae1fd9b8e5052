import { CatalogError } from '@cmsg/errors';

/** SPEC 8: actions per group and AI-triggering actions per group. */
export const ACTION_GROUP_LIMITS = { maxActions: 10, maxAiTriggeringActions: 3 } as const;

const AI_TRIGGERING_TYPES = ['run_ai', 'ai_assistance'];

/**
 * run_ai, ai_assistance, and assign_ai_employee with run true (SPEC 4.3 rule 2). Takes any value so
 * it can count the actions of a body that is not validated yet.
 */
export function isAiTriggeringAction(action: unknown): boolean {
  if (typeof action !== 'object' || action === null) return false;
  const { type, run } = action as { type?: unknown; run?: unknown };
  return (typeof type === 'string' && AI_TRIGGERING_TYPES.includes(type)) || (type === 'assign_ai_employee' && run === true);
}

/**
 * BATCH_LIMIT_EXCEEDED (with the cap in the message) for a group over either limit. It looks only
 * at the count and the `type`/`run` of each action, so it runs before schema validation and a
 * too-large group gets this code whatever else is wrong with it.
 */
export function assertActionGroupLimits(actions: unknown): void {
  if (!Array.isArray(actions)) return;
  const { maxActions, maxAiTriggeringActions } = ACTION_GROUP_LIMITS;
  if (actions.length > maxActions) {
    throw new CatalogError('BATCH_LIMIT_EXCEEDED', `An action group holds at most ${maxActions} actions; this one has ${actions.length}.`);
  }
  const aiTriggering = actions.filter(isAiTriggeringAction).length;
  if (aiTriggering > maxAiTriggeringActions) {
    throw new CatalogError(
      'BATCH_LIMIT_EXCEEDED',
      `An action group holds at most ${maxAiTriggeringActions} AI-triggering actions (run_ai, ai_assistance, assign_ai_employee with run true); this one has ${aiTriggering}.`,
    );
  }
}
