import type { AiRunCommand, ScheduledMessageCommand } from '@cmsg/conversation-commands';
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

/** The per-conversation command stream (topic conversation-commands, key = conversation uuid). */
export interface ConversationCommandPublisher {
  submit(conversationUuid: string, command: ScheduledMessageCommand | AiRunCommand): Promise<void>;
  /** Many conversations' commands in one request (a firing pass). */
  submitMany(entries: readonly { conversationId: string; command: ScheduledMessageCommand }[]): Promise<void>;
}

/** Whether a file was uploaded and confirmed for module api_messages in this business. */
export interface ConfirmedFileLookup {
  isConfirmed(scope: BusinessScope, fileUuid: string): Promise<boolean>;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
