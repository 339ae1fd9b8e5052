import {
  assignAiEmployeeEndpoint,
  assignMailboxEndpoint,
  assignTagsEndpoint,
  handToHumanEndpoint,
  removeTagsEndpoint,
  unassignAiEndpoint,
} from '@cmsg/api-schemas';
import { isCatalogError } from '@cmsg/errors';
import { AlreadyInStatePolicy, type AssignAiEmployeeResponse, type Caller } from '@cmsg/proto';
import type { Upstreams } from '../gateway-dependencies';
import {
  type AiRunStart,
  toAiEmployeeAssignmentResponse,
  toAiUnassignmentResponse,
  toMailboxAssignmentResponse,
  toTagChangeOutcome,
} from '../mappers/conversation-action.mapper';
import { type BusinessRoute, businessRoute } from './business-route';

// Individual endpoints answer 409 where an action group would count a no-op (CONTRACT 5).
const policy = AlreadyInStatePolicy.ALREADY_IN_STATE_CONFLICT;
/** A run started by the public API chains from nothing: depth 0, as /conversation/run-ai. */
const API_DEPTH = 0;

/** `run: true`: the actions-runner starts the AI; a run that cannot start does not undo the assignment. */
async function startAiRun(actions: Upstreams['actions'], caller: Caller, assignment: AssignAiEmployeeResponse): Promise<AiRunStart> {
  try {
    await actions.runAi({ caller, conversation: { uuid: assignment.conversation?.uuid }, ai_employee: { uuid: assignment.ai_employee?.uuid }, depth: API_DEPTH });
    return { status: 'processing' };
  } catch (error) {
    if (!isCatalogError(error)) throw error;
    return { status: 'failed', error };
  }
}

export const conversationActionRoutes: readonly BusinessRoute[] = [
  businessRoute(assignTagsEndpoint, {
    call: ({ conversationActions }, { caller, body }) => conversationActions.assignTags({ caller, conversation: body.conversation, tags: body.tags, policy }),
    toResponse: toTagChangeOutcome,
  }),
  businessRoute(removeTagsEndpoint, {
    call: ({ conversationActions }, { caller, body }) => conversationActions.removeTags({ caller, conversation: body.conversation, tags: body.tags, policy }),
    toResponse: toTagChangeOutcome,
  }),
  businessRoute(assignMailboxEndpoint, {
    call: ({ conversationActions }, { caller, body }) =>
      conversationActions.assignMailbox({ caller, conversation: body.conversation, mailbox: body.mailbox, category: body.category, policy }),
    toResponse: toMailboxAssignmentResponse,
  }),
  businessRoute(assignAiEmployeeEndpoint, {
    call: async ({ conversationActions, actions }, { caller, body }) => {
      const assignment = await conversationActions.assignAiEmployee({
        caller,
        conversation: body.conversation,
        ai_employee: body.ai_employee,
        scheduled_message_action: body.scheduled_message_action,
        policy,
      });
      return { assignment, aiRun: body.run ? await startAiRun(actions, caller, assignment) : null };
    },
    toResponse: toAiEmployeeAssignmentResponse,
  }),
  businessRoute(unassignAiEndpoint, {
    call: ({ conversationActions }, { caller, body }) =>
      conversationActions.unassignAi({ caller, conversation: body.conversation, scheduled_message_action: body.scheduled_message_action, hand_to_human: false }),
    toResponse: toAiUnassignmentResponse,
  }),
  businessRoute(handToHumanEndpoint, {
    call: ({ conversationActions }, { caller, body }) =>
      conversationActions.unassignAi({ caller, conversation: body.conversation, scheduled_message_action: body.scheduled_message_action, hand_to_human: true }),
    toResponse: toAiUnassignmentResponse,
  }),
];
