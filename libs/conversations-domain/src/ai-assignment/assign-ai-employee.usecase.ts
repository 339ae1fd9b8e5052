import type { BusinessScope } from '@cmsg/dal';
import type { AssignAiEmployeeResponse } from '@cmsg/proto';
import type { ActionActor } from '../action-support/action-actor';
import { type AlreadyInStatePolicy, whenAlreadyInState } from '../action-support/already-in-state';
import type { ObjectRef } from '../action-support/resolve-object-ref';
import { type ConversationReference, resolveConversation } from '../conversation/conversation-resolver';
import type { AiAssignmentPorts } from './ai-assignment-ports';
import { changeConversationOwner } from './change-conversation-owner';
import { handlePendingScheduleForOwnerChange } from './owner-change-schedule';
import { findAiEmployee } from './resolve-ai-employee.usecase';
import { parseScheduledMessageAction } from './scheduled-message-action';

export interface AssignAiEmployeeCommand {
  reference: ConversationReference;
  aiEmployee: ObjectRef;
  scheduledMessageAction: string | undefined;
  policy: AlreadyInStatePolicy;
  actor: ActionActor;
}

/**
 * AssignAiEmployee (SPEC 4.3 assign_ai_employee, CONTRACT 5 /conversation/ai-employee). Running
 * the AI afterwards (`run`) is the actions-runner's job, not this use case's.
 */
export async function assignAiEmployee(ports: AiAssignmentPorts, scope: BusinessScope, command: AssignAiEmployeeCommand): Promise<AssignAiEmployeeResponse> {
  const action = parseScheduledMessageAction(command.scheduledMessageAction);
  const conversation = await resolveConversation(ports.lookup, scope, command.reference);
  const employee = await findAiEmployee(ports.aiEmployees, scope, command.aiEmployee);
  const alreadyAssigned = (): AssignAiEmployeeResponse => {
    whenAlreadyInState(command.policy, 'AI_EMPLOYEE_ALREADY_ASSIGNED', `The AI employee '${employee.name}' is already assigned.`);
    return { conversation: { uuid: conversation._id }, ai_employee: { uuid: employee._id, name: employee.name }, noop: true };
  };
  if (conversation.ai_employee_id === employee._id) return alreadyAssigned();
  const now = ports.clock();
  const scheduleHandled = await handlePendingScheduleForOwnerChange(ports, scope, conversation, action, { kind: 'ai_employee', aiEmployeeId: employee._id }, command.actor, now);
  const change = await changeConversationOwner(ports, scope, conversation, employee._id, scheduleHandled, now, command.actor);
  // Not changed: a concurrent request assigned the same employee first.
  if (!change.changed) return alreadyAssigned();
  return { conversation: { uuid: conversation._id }, ai_employee: { uuid: employee._id, name: employee.name }, noop: false };
}
