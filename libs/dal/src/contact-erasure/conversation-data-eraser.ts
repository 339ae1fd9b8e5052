import type { Model, Types } from 'mongoose';
import { ActionGroupModel } from '../action-group/action-group.schema';
import { ContactModel } from '../contact/contact.schema';
import { ConversationModel } from '../conversation/conversation.schema';
import { EventModel } from '../event/event.schema';
import { FileModel } from '../file/file.schema';
import { MessageModel } from '../message/message.schema';
import { PaymentModel } from '../payment/payment.schema';
import { ScheduledMessageModel } from '../scheduled-message/scheduled-message.schema';
import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { TimelineEventModel } from '../timeline-event/timeline-event.schema';
import { WebhookDeliveryModel } from '../webhook-delivery/webhook-delivery.schema';

/** Events (and their webhook deliveries) deleted per round trip. */
const EVENT_BATCH = 500;

/** A file of the customer's media: its document and its GridFS content. */
export interface ErasableFile {
  _id: string;
  content_id: Types.ObjectId | null;
}

/**
 * Every query of a contact's erasure, over every collection that holds data of the contact or its
 * conversation (docs/contacts.md, "Erasure"). Each deletion is repeatable: a pass that a crash cut
 * off runs again from the start. Each is served by the collection's index named beside it.
 */
export class ConversationDataEraser {
  /**
   * Takes the conversation's next event sequence and deletes the conversation at that sequence, so
   * no event of it can take a later one: that sequence, or null when it is gone already.
   * Index: {business_id, _id}.
   */
  async deleteConversation(scope: BusinessScope, conversationId: string): Promise<number | null> {
    for (;;) {
      const taken = await ConversationModel.findOneAndUpdate(scopedFilter(scope, { _id: conversationId }), { $inc: { event_sequence: 1 } }, { new: true, projection: { event_sequence: 1 } })
        .lean<{ event_sequence: number }>()
        .exec();
      if (!taken) return null;
      const deleted = await ConversationModel.deleteOne(scopedFilter(scope, { _id: conversationId, event_sequence: taken.event_sequence })).exec();
      if (deleted.deletedCount === 1) return taken.event_sequence;
    }
  }

  /** Index: {business_id, _id}. */
  async deleteContact(scope: BusinessScope, contactId: string): Promise<void> {
    await ContactModel.deleteOne(scopedFilter(scope, { _id: contactId })).exec();
  }

  /** The files of the media the customer sent in the conversation. Indexes: messages {business_id, conversation_id, ...}, files {business_id, _id}. */
  async customerMediaFiles(scope: BusinessScope, conversationId: string): Promise<ErasableFile[]> {
    const messages = await MessageModel.find(scopedFilter(scope, { conversation_id: conversationId }), { 'media.file_uuid': 1 })
      .lean<{ media?: { file_uuid: string | null } | null }[]>()
      .exec();
    const fileIds = messages.map((message) => message.media?.file_uuid).filter((id): id is string => typeof id === 'string');
    if (fileIds.length === 0) return [];
    return FileModel.find(scopedFilter(scope, { _id: { $in: fileIds } }), { content_id: 1 })
      .lean<ErasableFile[]>()
      .exec();
  }

  /** Index: {business_id, _id}. */
  async deleteFiles(scope: BusinessScope, fileIds: readonly string[]): Promise<void> {
    if (fileIds.length > 0) await FileModel.deleteMany(scopedFilter(scope, { _id: { $in: [...fileIds] } })).exec();
  }

  /**
   * Everything else of the conversation: messages, timeline rows (notes and event rows), schedules,
   * action groups, payments. Indexes: each collection's {business_id, conversation_id, ...}.
   */
  async deleteConversationRecords(scope: BusinessScope, conversationId: string): Promise<void> {
    const ofConversation = scopedFilter(scope, { conversation_id: conversationId });
    await Promise.all(
      ([MessageModel, TimelineEventModel, ScheduledMessageModel, ActionGroupModel, PaymentModel] as Model<any>[]).map((model) => model.deleteMany(ofConversation).exec()),
    );
  }

  /**
   * The conversation's events but `keepEventId` (contact.erased), and the webhook deliveries of
   * each (their bodies are the events). Indexes: events {business_id, conversation_id, created_at,
   * _id}; deliveries {business_id, _id} (a delivery's id starts with its event's).
   */
  async deleteEvents(scope: BusinessScope, conversationId: string, keepEventId: string): Promise<void> {
    for (;;) {
      const events = await EventModel.find(scopedFilter(scope, { conversation_id: conversationId }), { _id: 1 })
        .limit(EVENT_BATCH + 1)
        .lean<{ _id: string }[]>()
        .exec();
      const ids = events.map((event) => event._id).filter((id) => id !== keepEventId);
      if (ids.length === 0) return;
      await WebhookDeliveryModel.deleteMany(scopedFilter(scope, { _id: { $in: ids.map((id) => new RegExp(`^${escapeRegExp(id)}:`)) } })).exec();
      await EventModel.deleteMany(scopedFilter(scope, { _id: { $in: ids } })).exec();
    }
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
