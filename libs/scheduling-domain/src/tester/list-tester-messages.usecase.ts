import { CatalogError } from '@cmsg/errors';
import type { BusinessScope } from '@cmsg/dal';
import type { TesterMessages } from '@cmsg/proto';
import type { ConversationStore, MessageStore } from '../ports';

export interface ListTesterMessagesDependencies {
  conversations: Pick<ConversationStore, 'findById'>;
  messages: Pick<MessageStore, 'findRecentOutbound'>;
}

/** CONTRACT 6: what was "sent" to a tester conversation (simulated, never to the provider), newest first. */
export async function listTesterMessages(scope: BusinessScope, conversationId: string, limit: number, dependencies: ListTesterMessagesDependencies): Promise<TesterMessages> {
  const conversation = await dependencies.conversations.findById(scope, conversationId);
  if (!conversation) throw new CatalogError('CONVERSATION_NOT_FOUND');
  if (!conversation.is_tester) throw new CatalogError('NOT_A_TESTER_CONVERSATION', 'Simulated messages exist on tester conversations only.');
  const sent = await dependencies.messages.findRecentOutbound(scope, conversationId, limit);
  return {
    items: sent.map((message) => ({
      uuid: message._id,
      body: message.body ?? '',
      content_type: message.content_type,
      status: message.status,
      author: message.author?.type ? { type: message.author.type, uuid: message.author.uuid ?? undefined } : undefined,
      created_at: message.created_at.toISOString(),
    })),
  };
}
