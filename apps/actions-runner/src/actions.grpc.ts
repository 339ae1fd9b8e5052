import {
  type AiPipelines,
  type SubmitActionGroupDependencies,
  getActionGroup,
  requestAiAssistance,
  submitActionGroup,
} from '@cmsg/actions-domain';
import { type ActionGroupRepository, businessScope } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import type { AsyncUnaryImplementation } from '@cmsg/platform/grpc';
import type { ActionsServiceServer, Caller, ConversationReference, ObjectRef } from '@cmsg/proto';

export interface ActionsHandlerDependencies {
  submit: SubmitActionGroupDependencies;
  groups: ActionGroupRepository;
  ai: AiPipelines;
}

/** Transport adapter: proto request -> use case -> proto response. No rules live here. */
export function actionsHandlers(dependencies: ActionsHandlerDependencies): AsyncUnaryImplementation<ActionsServiceServer> {
  const { submit, groups, ai } = dependencies;
  return {
    submitActionGroup: (request) =>
      submitActionGroup(submit, {
        caller: callerOf(request.caller),
        conversation: referenceOf(request.conversation),
        actions: request.actions,
        stopOnError: request.stop_on_error,
        escalateOnError: request.escalate_on_error,
        depth: request.depth,
        source: 'action_group',
      }),
    getActionGroup: (request) => getActionGroup(groups, businessScope(callerOf(request.caller).business_id), request.uuid),
    runAi: async (request) => {
      // A one-action group with the defaults of the public group endpoint.
      const accepted = await submitActionGroup(submit, {
        caller: callerOf(request.caller),
        conversation: referenceOf(request.conversation),
        actions: [{ type: 'run_ai', ...(request.ai_employee ? { ai_employee: objectRefOf(request.ai_employee) } : {}) }],
        stopOnError: true,
        escalateOnError: true,
        depth: request.depth,
        source: 'run_ai',
      });
      return { conversation: accepted.conversation, status: accepted.status };
    },
    aiAssistance: (request) => {
      if (!request.ai_employee) throw new CatalogError('INVALID_REQUEST', 'ai_employee is required.');
      return requestAiAssistance(
        { actions: submit.actions, ai },
        { caller: callerOf(request.caller), conversation: referenceOf(request.conversation), employee: objectRefOf(request.ai_employee), prompt: request.prompt },
      );
    },
  };
}

function callerOf(caller: Caller | undefined): Caller {
  if (!caller?.business_id) throw new CatalogError('INVALID_REQUEST', 'caller.business_id is required.');
  return caller;
}

function referenceOf(reference: ConversationReference | undefined): ConversationReference {
  if (!reference) throw new CatalogError('INVALID_REQUEST', 'conversation is required.');
  return reference;
}

/** Only the members that are set: the action schema validates it as JSON. */
function objectRefOf(ref: ObjectRef): ObjectRef {
  return { ...(ref.uuid !== undefined ? { uuid: ref.uuid } : {}), ...(ref.name !== undefined ? { name: ref.name } : {}) };
}
