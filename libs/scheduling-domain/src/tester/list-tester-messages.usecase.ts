import { CatalogError } from '@cmsg/errors';
import { type BusinessScope, ConversationModel, MessageModel, scopedFilter } from '@cmsg/dal';
import type { TesterMessages } from '@cmsg/proto';

interface StoredOutbound {
  _id: string;
  body?: string | null;
  content_type: string;
  status: string;
  author?: { type: string; uuid?: string | null } | null;
  created_at: Date;
}

/** CONTRACT 6: what was "sent" to a tester conversation (simulated, never to the provider), newest first. */
export async function listTesterMessages(scope: BusinessScope, conversationId: string, limit: number): Promise<TesterMessages> {
  const conversation = await ConversationModel.findOne(scopedFilter(scope, { _id: conversationId }), { is_tester: 1 }).lean<{ is_tester?: boolean }>();
  if (!conversation) throw new CatalogError('CONVERSATION_NOT_FOUND');
  if (!conversation.is_tester) throw new CatalogError('NOT_A_TESTER_CONVERSATION', 'Simulated messages exist on tester conversations only.');
  const messages = await MessageModel.find(scopedFilter(scope, { conversation_id: conversationId, is_from_customer: false }))
    .sort({ created_at: -1, _id: -1 })
    .limit(limit)
    .lean<StoredOutbound[]>();
  return {
    items: messages.map((message) => ({
      uuid: message._id,
      body: message.body ?? '',
      content_type: message.content_type,
      status: message.status,
      author: message.author?.type ? { type: message.author.type, uuid: message.author.uuid ?? undefined } : undefined,
      created_at: message.created_at.toISOString(),
    })),
  };
}
