import { aiAssistanceEndpoint, getActionGroupEndpoint, runAiEndpoint, submitActionGroupEndpoint } from '@cmsg/api-schemas';
import { toActionGroupView, toAiAssistanceResponse, toRunAiResponse, toSubmitActionGroupResponse } from '../mappers/action-group.mapper';
import { type BusinessRoute, businessRoute } from './business-route';

/** The public API never submits chained commands: its groups have depth 0 (SPEC 4.3, ACTIONS_DEPTH_EXCEEDED). */
const API_DEPTH = 0;

export const actionGroupRoutes: readonly BusinessRoute[] = [
  businessRoute(submitActionGroupEndpoint, {
    call: ({ actions }, { caller, body }) =>
      actions.submitActionGroup({
        caller,
        conversation: body.conversation,
        actions: body.actions,
        stop_on_error: body.stop_on_error,
        escalate_on_error: body.escalate_on_error,
        depth: API_DEPTH,
      }),
    toResponse: toSubmitActionGroupResponse,
  }),
  businessRoute(getActionGroupEndpoint, {
    call: ({ actions }, { caller, params }) => actions.getActionGroup({ caller, uuid: params.uuid }),
    toResponse: toActionGroupView,
  }),
  businessRoute(runAiEndpoint, {
    call: ({ actions }, { caller, body }) => actions.runAi({ caller, conversation: body.conversation, ai_employee: body.ai_employee, depth: API_DEPTH }),
    toResponse: toRunAiResponse,
  }),
  businessRoute(aiAssistanceEndpoint, {
    call: ({ actions }, { caller, body }) => actions.aiAssistance({ caller, conversation: body.conversation, ai_employee: body.ai_employee, prompt: body.prompt }),
    toResponse: toAiAssistanceResponse,
  }),
];
