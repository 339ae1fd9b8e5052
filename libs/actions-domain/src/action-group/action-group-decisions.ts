import type { ActionGroupDecision } from './action-group-decision.model';
import type { ActionGroupEntity, ActionStatus, GroupStatus } from './action-group.model';

/**
 * The group as its decisions say (a copy): a decided result, start, escalation or end wins over
 * whatever the group document holds, which may lag behind or lose a write on FerretDB.
 */
export function withDecisions(group: ActionGroupEntity, decisions: readonly ActionGroupDecision[]): ActionGroupEntity {
  const merged: ActionGroupEntity = { ...group, actions: group.actions.map((action) => ({ ...action })) };
  for (const decision of decisions) {
    switch (decision.kind) {
      case 'started':
        merged.started_at = decision.at;
        break;
      case 'escalated':
        merged.escalated = true;
        break;
      case 'finished':
        merged.status = decision.status as Exclude<GroupStatus, 'processing'>;
        merged.finished_at = decision.at;
        break;
      case 'result': {
        const action = decision.index === null ? undefined : merged.actions[decision.index];
        if (!action) break;
        action.status = decision.status as ActionStatus;
        action.error = decision.error ?? null;
        action.finished_at = decision.at;
        if (decision.started_at) action.started_at = decision.started_at;
        break;
      }
    }
  }
  return merged;
}
