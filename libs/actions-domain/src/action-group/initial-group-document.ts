import type { ActionGroupEntity } from '@cmsg/dal';
import type { ActionGroupCommand } from './conversation-command';

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
