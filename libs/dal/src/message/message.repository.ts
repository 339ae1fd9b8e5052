import type { OptionalUnlessRequiredId } from 'mongodb';
import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { castDocument } from '../shared/cast-document';
import { insertIfAbsent } from '../shared/duplicate-key';
import { type OutboxEntry, storedOutboxEntry } from '../shared/outbox-entry.schema';
import { TenantRepository } from '../shared/tenant-repository';
import type { TimelinePage } from '../shared/timeline-page';
import type { MessageEntity } from './message.entity';
import { MessageModel } from './message.schema';

/** A new message, as stored (business_id comes from the scope); absent fields take their defaults. */
export type NewMessage = Pick<MessageEntity, '_id' | 'conversation_id' | 'is_from_customer' | 'created_at'> & Partial<Omit<MessageEntity, 'business_id'>>;

export interface StoredError {
  code: string;
  message: string;
  /** A send's failure: the chat platform's code ("131026"), null when it gave none. */
  provider_code?: string | null;
}

/** The status webhook's `pricing` (CONTRACT 10.3), kept on the outbound message as the provider sent it. */
export interface StoredPricing {
  billable: boolean | null;
  pricing_model: string | null;
  category: string | null;
}

/** How an inbound media's transcription ended when it did not produce one. */
export type UntranscribedMediaStatus = 'untranscribable' | 'wallet_empty' | 'failed';

export interface DeliveryStatusUpdate {
  status: string;
  /** The statuses this one may replace (a late `sent` never replaces `read`). */
  replaces: readonly string[];
  at: Date;
  error: StoredError | null;
  /** Kept from any status that carries it, even one that arrives too late to change the status. */
  pricing: StoredPricing | null;
}

export class MessageRepository extends TenantRepository<MessageEntity> {
  constructor() {
    super(MessageModel);
  }

  /** Inserts a message whose id is new (tester inbound messages). */
  async insert(scope: BusinessScope, message: NewMessage): Promise<void> {
    await MessageModel.create({ ...message, business_id: scope.businessId });
  }

  /**
   * Inserts the message unless one with its id exists (a repeated send or a redelivered webhook):
   * true when this call inserted it. Once per send and per inbound message: stored as create would
   * store it, without a mongoose document (castDocument).
   */
  insertIfAbsent(scope: BusinessScope, message: NewMessage): Promise<boolean> {
    return insertIfAbsent(() => this.collection().insertOne(castDocument(MessageModel, { ...message, business_id: scope.businessId }) as OptionalUnlessRequiredId<MessageEntity>));
  }

  // ---- outbound sends (exactly once per operation and part) ----

  findOutbound(scope: BusinessScope, id: string): Promise<MessageEntity | null> {
    return this.collection().findOne(scopedFilter(scope, { _id: id, is_from_customer: false })) as Promise<MessageEntity | null>;
  }

  /**
   * Unconditional: the provider accepted it, whatever a repeat concluded meanwhile. Answers the
   * message as stored, with its message.sent entry.
   */
  markSent(scope: BusinessScope, id: string, providerMessageId: string, event: OutboxEntry): Promise<MessageEntity | null> {
    return this.findOneAndUpdateDirect<MessageEntity>(scopedFilter(scope, { _id: id, is_from_customer: false }), {
      $set: { status: 'sent', provider_message_id: providerMessageId, error: null },
      $push: { outbox: storedOutboxEntry(event) },
    });
  }

  /** Settles a send still `sending` as failed, with its message.status_updated entry: true when this call settled it. */
  async markFailedIfSending(scope: BusinessScope, id: string, error: StoredError, event: OutboxEntry): Promise<boolean> {
    const updated = await MessageModel.updateOne(scopedFilter(scope, { _id: id, status: 'sending' }), { $set: { status: 'failed', error }, $push: { outbox: event } });
    return updated.modifiedCount === 1;
  }

  /** Forgets a send the provider never saw. */
  async deleteIfSending(scope: BusinessScope, id: string): Promise<void> {
    await MessageModel.deleteOne(scopedFilter(scope, { _id: id, status: 'sending' }));
  }

  /** The outbound message the provider knows by this id (delivery statuses name it so). */
  findOutboundByProviderId(scope: BusinessScope, providerMessageId: string): Promise<MessageEntity | null> {
    return MessageModel.findOne(scopedFilter(scope, { provider_message_id: providerMessageId, is_from_customer: false })).lean<MessageEntity>().exec();
  }

  /**
   * A provider's delivery status on the outbound message, with its message.status_updated entry,
   * while the message's status is one it may replace: true when it was applied.
   */
  async applyDeliveryStatus(scope: BusinessScope, id: string, update: DeliveryStatusUpdate, event: OutboxEntry): Promise<boolean> {
    const updated = await MessageModel.updateOne(scopedFilter(scope, { _id: id, is_from_customer: false, status: { $in: [...update.replaces] } }), {
      $set: { status: update.status, status_at: update.at, ...(update.error ? { error: update.error } : {}), ...(update.pricing ? { pricing: update.pricing } : {}) },
      $push: { outbox: event },
    });
    if (updated.modifiedCount === 1) return true;
    // A late `sent` may be the only status that carries the pricing: kept, without an event (the status did not change).
    if (update.pricing) await MessageModel.updateOne(scopedFilter(scope, { _id: id, is_from_customer: false, pricing: null }), { $set: { pricing: update.pricing } });
    return false;
  }

  // ---- inbound ingestion ----

  /** Records a step of an inbound message's ingestion as done (a redelivery skips it). */
  async markIngested(scope: BusinessScope, id: string, step: 'conversation_applied' | 'ai_run_queued' | 'consent_applied'): Promise<void> {
    await MessageModel.updateOne(scopedFilter(scope, { _id: id }), { $set: { [`ingest.${step}`]: true } });
  }

  async setMediaFile(scope: BusinessScope, id: string, file: { uuid: string; name: string; size: number }): Promise<void> {
    await MessageModel.updateOne(scopedFilter(scope, { _id: id }), { $set: { 'media.file_uuid': file.uuid, 'media.file_name': file.name, 'media.size': file.size } });
  }

  /** Records the media's transcription; the first to record one keeps it (true), a repeat changes nothing. */
  async recordTranscription(scope: BusinessScope, id: string, text: string): Promise<boolean> {
    const recorded = await MessageModel.updateOne(scopedFilter(scope, { _id: id, 'media.transcription_status': { $ne: 'transcribed' } }), {
      $set: { transcription: text, media_transcription_pending: false, 'media.transcription_status': 'transcribed', 'media.transcription_error': null },
    });
    return recorded.modifiedCount === 1;
  }

  /** Ends a pending transcription without one (the media stays awaiting). */
  async settleUntranscribed(scope: BusinessScope, id: string, status: UntranscribedMediaStatus, reason: string): Promise<void> {
    await MessageModel.updateOne(scopedFilter(scope, { _id: id, 'media.transcription_status': 'pending' }), {
      $set: { 'media.transcription_status': status, 'media.transcription_error': reason },
    });
  }

  /** Makes an untranscribed media pending again (a later message retries it). */
  async reopenTranscription(scope: BusinessScope, id: string, from: UntranscribedMediaStatus): Promise<void> {
    await MessageModel.updateOne(scopedFilter(scope, { _id: id, 'media.transcription_status': from }), {
      $set: { 'media.transcription_status': 'pending', 'media.transcription_error': null },
    });
  }

  // ---- reads of a conversation ----

  /** The conversation's newest messages, newest first. */
  findRecent(scope: BusinessScope, conversationId: string, limit: number): Promise<MessageEntity[]> {
    return this.findTimelinePage(scope, conversationId, { after: {}, direction: -1, limit });
  }

  /** One stretch of the conversation's messages in timeline order. */
  findTimelinePage(scope: BusinessScope, conversationId: string, page: TimelinePage): Promise<MessageEntity[]> {
    return MessageModel.find(scopedFilter(scope, { conversation_id: conversationId, ...page.after }))
      .sort({ created_at: page.direction, _id: page.direction })
      .limit(page.limit)
      .lean<MessageEntity[]>()
      .exec();
  }

  /** What was sent to the conversation, newest first (the tester module's message list). */
  findRecentOutbound(scope: BusinessScope, conversationId: string, limit: number): Promise<MessageEntity[]> {
    return MessageModel.find(scopedFilter(scope, { conversation_id: conversationId, is_from_customer: false }))
      .sort({ created_at: -1, _id: -1 })
      .limit(limit)
      .lean<MessageEntity[]>()
      .exec();
  }

  /**
   * The newest outbound message of the conversation that failed with `code` at or after `since`
   * (eligibility's MARKETING_LIMIT_REACHED within 24 h). Served by the conversation/direction/
   * created_at index: the range bounds the scan to one day of one conversation's sends.
   */
  findNewestOutboundFailedSince(scope: BusinessScope, conversationId: string, code: string, since: Date): Promise<MessageEntity | null> {
    return MessageModel.findOne(scopedFilter(scope, { conversation_id: conversationId, is_from_customer: false, created_at: { $gte: since }, 'error.code': code }))
      .sort({ created_at: -1, _id: -1 })
      .lean<MessageEntity>()
      .exec();
  }

  /** Every message of these conversations (the seed derives what a conversation shows of them). */
  findOfConversations(scope: BusinessScope, conversationIds: readonly string[]): Promise<MessageEntity[]> {
    if (conversationIds.length === 0) return Promise.resolve([]);
    return MessageModel.find(scopedFilter(scope, { conversation_id: { $in: [...conversationIds] } })).lean<MessageEntity[]>().exec();
  }
}
