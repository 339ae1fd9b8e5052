import { randomUUID } from 'node:crypto';
import { type Action, ActionSchema, assertActionGroupLimits, isAiTriggeringAction } from '@cmsg/api-schemas';
import { CatalogError } from '@cmsg/errors';
import { currentRequestId, type Logger } from '@cmsg/platform';
import type { Caller, ConversationReference, SubmitActionGroupResponse } from '@cmsg/proto';
import type { Clock, CommandPublisher, ConversationActionsPort } from '../ports';
import type { ActionGroupStore } from '@cmsg/dal';
import { initialGroupDocument } from './initial-group-document';
import { type ActionGroupSource, createActionGroupCommand } from './conversation-command';
import { runPreflight } from './preflight';

export interface SubmitActionGroupInput {
  caller: Caller;
  conversation: ConversationReference;
  /** Action objects as received (gRPC Structs): validated again here. */
  actions: readonly unknown[];
  stopOnError: boolean;
  escalateOnError: boolean;
  depth: number;
  source: ActionGroupSource;
}

export interface SubmitActionGroupDependencies {
  actions: Pick<ConversationActionsPort, 'resolveConversation' | 'getConversationContext' | 'resolveAiEmployee'>;
  publisher: CommandPublisher;
  groups: ActionGroupStore;
  clock: Clock;
  logger: Logger;
}

/**
 * The synchronous phase of an action group (SPEC 4.3 rule 1): validate, resolve the conversation,
 * preflight, then one command on the conversation's stream carrying the whole group, then the
 * group document. The command goes first: once it is produced nothing is lost, and the runner
 * creates the document from it if this process dies before writing it.
 */
export async function submitActionGroup(dependencies: SubmitActionGroupDependencies, input: SubmitActionGroupInput): Promise<SubmitActionGroupResponse> {
  const actions = validateActions(input.actions);
  if (!input.caller.business_id) throw new CatalogError('INVALID_REQUEST', 'caller.business_id is required.');
  const conversationUuid = await resolveAndPreflight(dependencies, input, actions);

  const command = createActionGroupCommand({
    group_uuid: randomUUID(),
    business_id: input.caller.business_id,
    token_uuid: input.caller.token_uuid,
    request_id: currentRequestId() ?? null,
    conversation_uuid: conversationUuid,
    source: input.source,
    depth: input.depth,
    stop_on_error: input.stopOnError,
    escalate_on_error: input.escalateOnError,
    actions,
    created_at: dependencies.clock.now().toISOString(),
  });
  await dependencies.publisher.submit(conversationUuid, command);
  try {
    await dependencies.groups.createIfMissing(initialGroupDocument(command));
  } catch (error) {
    // Accepted already: answering an error now would make the client submit the group twice.
    dependencies.logger.warn({ err: error, action_group: command.group_uuid }, 'group document not written; the runner creates it from the command');
  }
  return {
    conversation: { uuid: conversationUuid },
    status: 'processing',
    actions_accepted: actions.length,
    action_group: { uuid: command.group_uuid },
  };
}

/**
 * The conversation's uuid, after the preflight of a group with AI-triggering actions, which needs the
 * conversation's context (owner, vision wallet); any other group needs only the reference resolved.
 */
async function resolveAndPreflight(dependencies: SubmitActionGroupDependencies, input: SubmitActionGroupInput, actions: readonly Action[]): Promise<string> {
  const reference = { caller: input.caller, conversation: input.conversation };
  if (!actions.some(isAiTriggeringAction)) return (await dependencies.actions.resolveConversation(reference)).uuid;
  const context = await dependencies.actions.getConversationContext(reference);
  await runPreflight(dependencies.actions, { caller: input.caller, context, actions, depth: input.depth });
  return context.uuid;
}

/** Limits first (BATCH_LIMIT_EXCEEDED), then each action's schema (INVALID_REQUEST naming it). */
function validateActions(raw: readonly unknown[]): Action[] {
  assertActionGroupLimits(raw);
  if (raw.length === 0) throw new CatalogError('INVALID_REQUEST', 'Invalid request: actions: at least 1 action is required.');
  return raw.map((candidate, index) => {
    const result = ActionSchema.safeParse(candidate);
    if (result.success) return result.data;
    const problems = result.error.issues.map((issue) => `${['actions', index, ...issue.path].join('.')}: ${issue.message}`);
    throw new CatalogError('INVALID_REQUEST', `Invalid request: ${problems.join('; ')}.`);
  });
}
