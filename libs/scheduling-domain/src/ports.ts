import type { ScheduledMessageCommand } from '@cmsg/conversation-commands';
import type { BusinessScope } from '@cmsg/dal';
import type { ConversationContext, ConversationRequest } from '@cmsg/proto';

/**
 * The conversations service's view of a conversation (ConversationActionsService.GetConversationContext):
 * reference resolution with its 404/409 answers, the window and now at the conversation's own
 * clock (virtual for testers). Failures arrive as catalog errors.
 */
export interface ConversationContextPort {
  getConversationContext(request: ConversationRequest): Promise<ConversationContext>;
}

/**
 * An AI run after a simulated customer message, in the shape the actions-runner consumes
 * (ActionGroupCommandSchema of @cmsg/actions-domain, kind action_group, one run_ai action).
 */
export interface AiRunActionGroupCommand {
  kind: 'action_group';
  group_uuid: string;
  business_id: string;
  token_uuid: string;
  request_id: string | null;
  conversation_uuid: string;
  source: 'run_ai';
  depth: number;
  stop_on_error: boolean;
  escalate_on_error: boolean;
  actions: [{ type: 'run_ai' }];
  created_at: string;
}

/** The per-conversation command stream (topic conversation-commands, key = conversation uuid). */
export interface ConversationCommandPublisher {
  submit(conversationUuid: string, command: ScheduledMessageCommand | AiRunActionGroupCommand): Promise<void>;
}

/** Whether a file was uploaded and confirmed for module api_messages in this business. */
export interface ConfirmedFileLookup {
  isConfirmed(scope: BusinessScope, fileUuid: string): Promise<boolean>;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
