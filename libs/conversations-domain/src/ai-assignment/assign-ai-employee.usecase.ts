import type { BusinessScope } from '@cmsg/dal';
import type { AssignAiEmployeeResponse } from '@cmsg/proto';
import type { ActionActor } from '../action-support/action-actor';
import { type AlreadyInStatePolicy, whenAlreadyInState } from '../action-support/already-in-state';
import type { ObjectRef } from '../action-support/resolve-object-ref';
import { type ConversationReference, resolveConversationReference } from '../resolve-conversation-reference';
import { currentConversationState } from '../conversation-state-change';
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
export async function assignAiEmployee(scope: BusinessScope, command: AssignAiEmployeeCommand): Promise<AssignAiEmployeeResponse> {
  const action = parseScheduledMessageAction(command.scheduledMessageAction);
  const { conversation } = await resolveConversationReference(scope, command.reference);
  const employee = await findAiEmployee(scope, command.aiEmployee);
  const response = (noop: boolean): AssignAiEmployeeResponse => ({
    conversation: { uuid: conversation._id },
    ai_employee: { uuid: employee._id, name: employee.name },
    noop,
  });
  if ((await currentConversationState(scope, conversation, 'owner')) === employee._id) {
    whenAlreadyInState(command.policy, 'AI_EMPLOYEE_ALREADY_ASSIGNED', `The AI employee '${employee.name}' is already assigned.`);
    return response(true);
  }
  const now = new Date();
  const scheduleHandled = await handlePendingScheduleForOwnerChange(scope, conversation, action, { kind: 'ai_employee', aiEmployeeId: employee._id }, command.actor, now);
  const change = await changeConversationOwner(scope, conversation, employee._id, scheduleHandled, now, command.actor);
  if (!change.changed) {
    // A concurrent request assigned the same employee first.
    whenAlreadyInState(command.policy, 'AI_EMPLOYEE_ALREADY_ASSIGNED', `The AI employee '${employee.name}' is already assigned.`);
    return response(true);
  }
  return response(false);
}
