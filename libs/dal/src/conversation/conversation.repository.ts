import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import type { ConversationEntity } from './conversation.entity';
import { ConversationModel } from './conversation.schema';

export type StoredConversationEntity = ConversationEntity & { _id: string };

/** A simulated customer message of a tester conversation, as the conversation records it. */
export interface SimulatedInbound {
  uuid: string;
  body: string;
  createdAt: Date;
}

export class ConversationRepository {
  find(scope: BusinessScope, id: string): Promise<StoredConversationEntity | null> {
    return ConversationModel.findOne(scopedFilter(scope, { _id: id })).lean<StoredConversationEntity>();
  }

  /** A tester contact's one conversation (CONTRACT 6). */
  async insertTesterConversation(scope: BusinessScope, conversation: { _id: string; contact_id: string; contact: unknown; channel_id: string; now: Date }): Promise<void> {
    const { now, ...fields } = conversation;
    await ConversationModel.create({ ...fields, business_id: scope.businessId, inbox_status: 'resolved', is_tester: true, sort_at: now, created_at: now, updated_at: now });
  }

  /**
   * A simulated customer message opens the window and counts as unread, as a real one does; an
   * older message than the last one recorded (virtual clock moved back) leaves the last message.
   */
  async recordSimulatedInbound(scope: BusinessScope, conversationId: string, message: SimulatedInbound, realNow: Date): Promise<void> {
    await ConversationModel.updateOne(
      scopedFilter(scope, { _id: conversationId, $or: [{ last_message: null }, { 'last_message.created_at': { $lte: message.createdAt } }] }),
      {
        $set: {
          last_message: { uuid: message.uuid, body: message.body, content_type: 'text', is_from_customer: true, created_at: message.createdAt },
          last_inbound_at: message.createdAt,
          last_inbound_message_id: message.uuid,
          sort_at: message.createdAt,
          updated_at: realNow,
        },
        $inc: { unread_count: 1 },
      },
    );
  }
}
