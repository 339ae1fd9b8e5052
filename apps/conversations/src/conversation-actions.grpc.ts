import {
  type AiAssignmentPorts,
  type AiEmployeeStore,
  type AlreadyInStatePolicy,
  type AssignMailboxPorts,
  type ChangeTagsPorts,
  type ConversationContextPorts,
  type ConversationLookup,
  type InboxStatusPorts,
  type ObjectRef,
  type RecentTimelinePorts,
  actorOfToken,
  assignAiEmployee,
  assignMailbox,
  chargeAiWallet,
  changeTags,
  escalate,
  getConversationContext,
  getRecentTimeline,
  resolveAiEmployee,
  resolveConversationUuid,
  unassignAi,
} from '@cmsg/conversations-domain';
import { type BusinessScope, businessScope } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import type { AsyncUnaryImplementation } from '@cmsg/platform/grpc';
import {
  AlreadyInStatePolicy as ProtoAlreadyInStatePolicy,
  type Caller,
  type ConversationActionsServiceServer,
  type ConversationReference,
  type ObjectRef as ProtoObjectRef,
} from '@cmsg/proto';

export type ConversationActionHandlers = Omit<AsyncUnaryImplementation<ConversationActionsServiceServer>, 'sendMessage' | 'startConversation' | 'applyChanges'>;

export interface ConversationActionHandlerDependencies {
  aiEmployees: AiEmployeeStore;
  lookup: ConversationLookup;
  tags: ChangeTagsPorts;
  mailboxes: AssignMailboxPorts;
  aiAssignment: AiAssignmentPorts;
  /** Escalation sets the conversation pending. */
  inboxStatus: InboxStatusPorts;
  context: ConversationContextPorts;
  recentTimeline: RecentTimelinePorts;
}

/** Transport adapter for the state-changing actions (tags, mailbox, AI assignment, escalation, context). No rules live here. */
export function conversationActionHandlers(dependencies: ConversationActionHandlerDependencies): ConversationActionHandlers {
  const { aiEmployees, lookup, tags, mailboxes, aiAssignment, inboxStatus, context, recentTimeline } = dependencies;
  return {
    assignTags: (request) =>
      changeTags(tags, scopeOf(request.caller), {
        reference: referenceOf(request.conversation),
        tags: request.tags.map(objectRefOf),
        direction: 'assign',
        policy: policyOf(request.policy),
        actor: actorOfToken(request.caller?.token_uuid),
      }),
    removeTags: (request) =>
      changeTags(tags, scopeOf(request.caller), {
        reference: referenceOf(request.conversation),
        tags: request.tags.map(objectRefOf),
        direction: 'remove',
        policy: policyOf(request.policy),
        actor: actorOfToken(request.caller?.token_uuid),
      }),
    assignMailbox: (request) =>
      assignMailbox(mailboxes, scopeOf(request.caller), {
        reference: referenceOf(request.conversation),
        mailbox: request.mailbox && objectRefOf(request.mailbox),
        category: request.category && objectRefOf(request.category),
        policy: policyOf(request.policy),
        actor: actorOfToken(request.caller?.token_uuid),
      }),
    assignAiEmployee: (request) =>
      assignAiEmployee(aiAssignment, scopeOf(request.caller), {
        reference: referenceOf(request.conversation),
        aiEmployee: requiredObjectRef(request.ai_employee, 'ai_employee'),
        scheduledMessageAction: request.scheduled_message_action,
        policy: policyOf(request.policy),
        actor: actorOfToken(request.caller?.token_uuid),
      }),
    unassignAi: (request) =>
      unassignAi(aiAssignment, scopeOf(request.caller), {
        reference: referenceOf(request.conversation),
        scheduledMessageAction: request.scheduled_message_action,
        handToHuman: request.hand_to_human,
        actor: actorOfToken(request.caller?.token_uuid),
      }),
    escalate: (request) => escalate(inboxStatus, scopeOf(request.caller), request.conversation_uuid, request.pending_reason),
    resolveConversation: async (request) => ({ uuid: await resolveConversationUuid(lookup, scopeOf(request.caller), referenceOf(request.conversation)) }),
    getConversationContext: (request) => getConversationContext(context, scopeOf(request.caller), referenceOf(request.conversation)),
    getRecentTimeline: (request) => getRecentTimeline(recentTimeline, scopeOf(request.caller), request.conversation_uuid, request.limit),
    resolveAiEmployee: (request) => resolveAiEmployee(aiEmployees, scopeOf(request.caller), requiredObjectRef(request.ai_employee, 'ai_employee')),
    chargeAiWallet: (request) =>
      chargeAiWallet(aiEmployees, scopeOf(request.caller), { aiEmployeeUuid: request.ai_employee_uuid, tokens: request.tokens, operationId: request.operation_id }),
  };
}

function scopeOf(caller: Caller | undefined): BusinessScope {
  if (!caller?.business_id) throw new CatalogError('INVALID_REQUEST', 'caller.business_id is required.');
  return businessScope(caller.business_id);
}

function referenceOf(reference: ConversationReference | undefined): ConversationReference {
  if (!reference) throw new CatalogError('INVALID_REQUEST', 'conversation is required.');
  return reference;
}

/** Unset means CONFLICT: a caller that forgot the policy gets the strict answer, never a silent no-op. */
function policyOf(policy: ProtoAlreadyInStatePolicy): AlreadyInStatePolicy {
  return policy === ProtoAlreadyInStatePolicy.ALREADY_IN_STATE_NOOP ? 'noop' : 'conflict';
}

/** Proto3 leaves an unset optional string undefined; an empty one counts as unset too. */
function objectRefOf(ref: ProtoObjectRef): ObjectRef {
  return { uuid: ref.uuid || undefined, name: ref.name || undefined };
}

function requiredObjectRef(ref: ProtoObjectRef | undefined, field: string): ObjectRef {
  if (!ref) throw new CatalogError('INVALID_REQUEST', `${field} is required.`);
  return objectRefOf(ref);
}
