import type { ActionGroup } from '@cmsg/proto';
import type { ActionGroupEntity, ActionStatus } from '@cmsg/dal';

/** CONTRACT 4 has no `running`: an action under way is still `pending` to clients. */
export function publicActionStatus(status: ActionStatus): Exclude<ActionStatus, 'running'> {
  return status === 'running' ? 'pending' : status;
}

export function toActionGroupMessage(group: ActionGroupEntity): ActionGroup {
  return {
    uuid: group._id,
    status: group.status,
    escalated: group.escalated,
    conversation: { uuid: group.conversation_id },
    actions: group.actions.map((action) => ({
      index: action.index,
      type: action.type,
      status: publicActionStatus(action.status),
      error: action.error ? { code: action.error.code, message: action.error.message } : undefined,
      started_at: action.started_at?.toISOString(),
      finished_at: action.finished_at?.toISOString(),
    })),
    created_at: group.created_at.toISOString(),
    finished_at: group.finished_at?.toISOString(),
  };
}
