import type { BusinessScope } from '@cmsg/dal';
import type { UnassignAiResponse } from '@cmsg/proto';
import type { ActionActor } from '../action-support/action-actor';
import { type ConversationReference, resolveConversation, type StoredConversation } from '../conversation/conversation-resolver';
import { changeInboxStatus } from '../inbox/set-inbox-status.usecase';
import type { AiAssignmentPorts } from './ai-assignment-ports';
import { changeConversationOwner } from './change-conversation-owner';
import { handlePendingScheduleForOwnerChange } from './owner-change-schedule';
import { parseScheduledMessageAction } from './scheduled-message-action';

export interface UnassignAiCommand {
  reference: ConversationReference;
  scheduledMessageAction: string | undefined;
  /** POST /conversation/human: the conversation also goes to pending (pending_reason human_handoff). */
  handToHuman: boolean;
  actor: ActionActor;
}

/**
 * UnassignAi (SPEC 4.3 unassign_ai; CONTRACT 5 /conversation/unassign-ai and /conversation/human).
 * No AI assigned: nothing to unassign, a no-op answered 200 (the handoff still sets pending).
 */
export async function unassignAi(ports: AiAssignmentPorts, scope: BusinessScope, command: UnassignAiCommand): Promise<UnassignAiResponse> {
  const action = parseScheduledMessageAction(command.scheduledMessageAction);
  const conversation = await resolveConversation(ports.lookup, scope, command.reference);
  let current: StoredConversation = conversation;
  let hadAi = Boolean(conversation.ai_employee_id);
  if (hadAi) {
    const now = ports.clock();
    const scheduleHandled = await handlePendingScheduleForOwnerChange(ports, scope, conversation, action, { kind: 'human_user' }, command.actor, now);
    const change = await changeConversationOwner(ports, scope, conversation, null, scheduleHandled, now, command.actor);
    // A concurrent request unassigned it first: this one changed nothing.
    hadAi = change.changed;
    current = change.conversation;
  }
  if (!command.handToHuman) return { conversation: { uuid: conversation._id }, inbox_status: current.inbox_status, noop: !hadAi };

  const statusChanged = await changeInboxStatus(ports, scope, current, { target: 'pending', pendingReason: 'human_handoff', actor: command.actor });
  return { conversation: { uuid: conversation._id }, inbox_status: 'pending', noop: !hadAi && !statusChanged };
}
