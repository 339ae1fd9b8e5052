import {
  ACTION_TYPES,
  ActionGroupStatusSchema,
  ActionStatusSchema,
  type ActionGroupView,
  type ActionResultView,
  type SubmitActionGroupResponse,
} from '@cmsg/api-schemas';
import { isErrorCode } from '@cmsg/errors';
import type {
  ActionGroup,
  ActionResult,
  AiAssistanceResponse,
  RunAiResponse,
  SubmitActionGroupResponse as ProtoSubmitActionGroupResponse,
} from '@cmsg/proto';
import { publicEnumValue, requiredField } from './upstream-fields';

export function toSubmitActionGroupResponse(response: ProtoSubmitActionGroupResponse): SubmitActionGroupResponse {
  return {
    conversation: { uuid: requiredField(response.conversation, 'conversation').uuid },
    status: publicEnumValue(['processing'], response.status, 'status'),
    actions_accepted: response.actions_accepted,
    action_group: { uuid: requiredField(response.action_group, 'action_group').uuid },
  };
}

function toActionResult(result: ActionResult): ActionResultView {
  const error = result.error;
  if (error && !isErrorCode(error.code)) throw new Error(`Upstream action result has unknown error code ${JSON.stringify(error.code)}`);
  return {
    index: result.index,
    type: publicEnumValue(ACTION_TYPES, result.type, 'actions.type'),
    status: publicEnumValue(ActionStatusSchema.options, result.status, 'actions.status'),
    error: error && isErrorCode(error.code) ? { code: error.code, message: error.message } : null,
    started_at: result.started_at ?? null,
    finished_at: result.finished_at ?? null,
  };
}

export function toActionGroupView(group: ActionGroup): ActionGroupView {
  return {
    uuid: group.uuid,
    conversation: { uuid: requiredField(group.conversation, 'conversation').uuid },
    status: publicEnumValue(ActionGroupStatusSchema.options, group.status, 'status'),
    escalated: group.escalated,
    actions: group.actions.map(toActionResult),
    created_at: group.created_at,
    finished_at: group.finished_at ?? null,
  };
}

export function toRunAiResponse(response: RunAiResponse) {
  return {
    conversation: { uuid: requiredField(response.conversation, 'conversation').uuid },
    status: publicEnumValue(['processing'], response.status, 'status'),
  };
}

export function toAiAssistanceResponse(response: AiAssistanceResponse) {
  return { answer: response.answer, note: { uuid: requiredField(response.note, 'note').uuid } };
}
