import type { Collection } from 'mongodb';
import type { Model } from 'mongoose';
import { ActionGroupModel } from '../action-group/action-group.schema';
import { ContactModel } from '../contact/contact.schema';
import { ContactErasureModel } from '../contact-erasure/contact-erasure.schema';
import { BroadcastModel } from '../broadcast/broadcast.schema';
import { ConversationModel } from '../conversation/conversation.schema';
import { MessageModel } from '../message/message.schema';
import { ScheduledMessageModel } from '../scheduled-message/scheduled-message.schema';
import { TimelineEventModel } from '../timeline-event/timeline-event.schema';
import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import type { OutboxEntry } from '../shared/outbox-entry.schema';

/** The collections whose writes push outbox entries (docs/events.md). */
export const OUTBOX_COLLECTIONS = ['conversations', 'messages', 'timeline_events', 'scheduled_messages', 'action_groups', 'contacts', 'contact_erasures', 'broadcasts'] as const;
export type OutboxCollection = (typeof OUTBOX_COLLECTIONS)[number];

const MODELS: Record<OutboxCollection, Model<any>> = {
  conversations: ConversationModel,
  messages: MessageModel,
  timeline_events: TimelineEventModel,
  scheduled_messages: ScheduledMessageModel,
  action_groups: ActionGroupModel,
  contacts: ContactModel,
  contact_erasures: ContactErasureModel,
  broadcasts: BroadcastModel,
};

/** A document with entries still in its outbox. */
export interface OutboxHolder {
  _id: string;
  business_id: string;
  outbox: OutboxEntry[];
}

/**
 * The `outbox` arrays of every collection that has one. Entries are pushed by each collection's own
 * repository in the write that makes the change; this removes them once recorded and finds those a
 * crash left behind. Each of those collections declares the index `{ 'outbox.created_at': 1 }`.
 */
export class OutboxRepository {
  /** Removes recorded entries from the document's outbox. */
  async pull(collection: OutboxCollection, scope: BusinessScope, documentId: string, entryIds: readonly string[]): Promise<void> {
    if (entryIds.length === 0) return;
    // Through the driver: one pull per recorded write, where mongoose's casting of the update is most of the CPU.
    const holders = MODELS[collection].collection as unknown as Collection<OutboxHolder>;
    await holders.updateOne(scopedFilter(scope, { _id: documentId }), { $pull: { outbox: { id: { $in: [...entryIds] } } } });
  }

  /** The same for the entries of many documents of one collection, in one update (entry ids are unique). */
  async pullMany(collection: OutboxCollection, scope: BusinessScope, documentIds: readonly string[], entryIds: readonly string[]): Promise<void> {
    if (documentIds.length === 0 || entryIds.length === 0) return;
    const holders = MODELS[collection].collection as unknown as Collection<OutboxHolder>;
    await holders.updateMany(scopedFilter(scope, { _id: { $in: [...new Set(documentIds)] } }), { $pull: { outbox: { id: { $in: [...entryIds] } } } });
  }

  /**
   * Documents of every business holding an entry older than `before`: what a crash between a change
   * and its recording left behind (the relay). Crosses businesses on purpose.
   */
  findStaleAcrossBusinesses(collection: OutboxCollection, before: Date, limit: number): Promise<OutboxHolder[]> {
    return MODELS[collection].find({ 'outbox.created_at': { $lt: before } }, { business_id: 1, outbox: 1 }).limit(limit).lean<OutboxHolder[]>().exec();
  }

  /** Documents with entries not yet recorded, in every collection and business (the cmsg_outbox_backlog gauge). */
  async countHoldersAcrossBusinesses(): Promise<number> {
    const counts = await Promise.all(OUTBOX_COLLECTIONS.map((collection) => MODELS[collection].countDocuments({ 'outbox.created_at': { $gte: new Date(0) } }).exec()));
    return counts.reduce((sum, count) => sum + count, 0);
  }
}
