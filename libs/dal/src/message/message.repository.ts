import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import type { MessageEntity } from './message.entity';
import { MessageModel } from './message.schema';

export type StoredMessageEntity = MessageEntity & { _id: string };

export class MessageRepository {
  async insert(scope: BusinessScope, message: Partial<Omit<MessageEntity, 'business_id'>> & { _id: string; conversation_id: string; is_from_customer: boolean; created_at: Date }): Promise<void> {
    await MessageModel.create({ ...message, business_id: scope.businessId });
  }

  /** The conversation's outbound messages, newest first. */
  latestOutbound(scope: BusinessScope, conversationId: string, limit: number): Promise<StoredMessageEntity[]> {
    return MessageModel.find(scopedFilter(scope, { conversation_id: conversationId, is_from_customer: false }))
      .sort({ created_at: -1, _id: -1 })
      .limit(limit)
      .lean<StoredMessageEntity[]>();
  }
}
