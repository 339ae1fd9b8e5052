import type { BusinessScope } from '@cmsg/dal';
import { repositories } from '../repositories';
import * as resolver from './conversation-resolver';
import type { ConversationReference, ResolvedConversation, StoredConversation } from './conversation-resolver';

export type { ConversationReference, ResolvedConversation, StoredContact, StoredConversation } from './conversation-resolver';

/*
 * The resolver of conversation-resolver.ts bound to the module-level repositories, for the use
 * cases that do not take a ConversationLookup yet (issue 32); goes with repositories.ts.
 */

export function resolveConversationReference(scope: BusinessScope, reference: ConversationReference): Promise<ResolvedConversation> {
  return resolver.resolveConversationReference(repositories, scope, reference);
}

export function resolveConversation(scope: BusinessScope, reference: ConversationReference): Promise<StoredConversation> {
  return resolver.resolveConversation(repositories, scope, reference);
}

export function resolveConversationUuid(scope: BusinessScope, reference: ConversationReference): Promise<string> {
  return resolver.resolveConversationUuid(repositories, scope, reference);
}

export function reloadConversation(scope: BusinessScope, conversationId: string): Promise<StoredConversation> {
  return resolver.reloadConversation(repositories.conversations, scope, conversationId);
}
