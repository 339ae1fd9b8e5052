import { CatalogError } from '@cmsg/errors';
import type { AsyncUnaryImplementation } from '@cmsg/platform';
import type { ConversationActionsServiceServer } from '@cmsg/proto';

export type ConversationActionHandlers = Omit<AsyncUnaryImplementation<ConversationActionsServiceServer>, 'sendMessage'>;

const notBuiltYet = async (): Promise<never> => {
  throw new CatalogError('UNKNOWN_ERROR', 'Not available in this version.');
};

/** Transport adapter for the state-changing actions (tags, mailbox, AI assignment, escalation, context). */
export function conversationActionHandlers(): ConversationActionHandlers {
  return {
    assignTags: notBuiltYet,
    removeTags: notBuiltYet,
    assignMailbox: notBuiltYet,
    assignAiEmployee: notBuiltYet,
    unassignAi: notBuiltYet,
    escalate: notBuiltYet,
    getConversationContext: notBuiltYet,
    getRecentTimeline: notBuiltYet,
    resolveAiEmployee: notBuiltYet,
    chargeAiWallet: notBuiltYet,
  };
}
