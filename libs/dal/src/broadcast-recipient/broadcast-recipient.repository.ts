import type { AnyBulkWriteOperation, Filter } from 'mongodb';
import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { duplicateKeyIndex, isDuplicateKeyError } from '../shared/duplicate-key';
import { TenantRepository } from '../shared/tenant-repository';
import { type BroadcastRecipientEntity, DELIVERY_PROGRESS, type RecipientError, type RecipientState } from './broadcast-recipient.entity';
import { BroadcastRecipientModel } from './broadcast-recipient.schema';

/** What counting a broadcast's recipients answers: by state, skips by reason, failures by code. */
export interface RecipientOutcomes {
  byStatus: Partial<Record<RecipientState, number>>;
  skippedByReason: Record<string, number>;
  failedByCode: Record<string, number>;
}

/** The final state a sender records for its claimed recipient. */
export type RecipientSendOutcome =
  | { status: 'sent'; message_id: string; sent_at: Date }
  | { status: 'failed'; error: RecipientError; message_id?: string }
  | { status: 'unknown'; message_id?: string }
  | { status: 'skipped'; reason: 'opted_out' };

/** The broadcast_recipients collection (docs/broadcasts.md): one document per audience member. */
export class BroadcastRecipientRepository extends TenantRepository<BroadcastRecipientEntity> {
  constructor() {
    super(BroadcastRecipientModel);
  }

  /**
   * Inserts a frozen batch. A recipient whose seq exists (the batch frozen again after a crash) is
   * dropped; one whose contact is already a recipient is answered in `duplicates` for the caller to
   * store as skipped. Index: the unique {broadcast_id, seq} and {broadcast_id, dedupe_key}.
   */
  async insertBatch(recipients: readonly BroadcastRecipientEntity[]): Promise<{ duplicates: BroadcastRecipientEntity[] }> {
    if (recipients.length === 0) return { duplicates: [] };
    try {
      await this.collection().insertMany([...recipients], { ordered: false });
      return { duplicates: [] };
    } catch (error) {
      const writeErrors = (error as { writeErrors?: { index: number; errmsg?: string; code?: number }[] }).writeErrors;
      if (!writeErrors) {
        if (isDuplicateKeyError(error) && recipients.length === 1) return this.duplicatesOf(recipients, [{ index: 0, errmsg: (error as Error).message }]);
        throw error;
      }
      if (writeErrors.some((writeError) => writeError.code !== 11000)) throw error;
      return this.duplicatesOf(recipients, writeErrors);
    }
  }

  private duplicatesOf(recipients: readonly BroadcastRecipientEntity[], writeErrors: { index: number; errmsg?: string }[]): { duplicates: BroadcastRecipientEntity[] } {
    const duplicates = writeErrors
      .filter((writeError) => (duplicateKeyIndex({ message: writeError.errmsg }) ?? '').includes('dedupe_key'))
      .map((writeError) => recipients[writeError.index]!);
    return { duplicates };
  }

  /**
   * Removes the recipients from `fromSeq` on: what an interrupted freeze step stored past the
   * checkpoint, before the step is run again (the audience may have changed since, so it is frozen
   * anew rather than matched). Index: {broadcast_id, seq}.
   */
  async discardFrom(scope: BusinessScope, broadcastId: string, fromSeq: number): Promise<void> {
    await this.collection().deleteMany(scopedFilter(scope, { broadcast_id: broadcastId, seq: { $gte: fromSeq } }) as Filter<BroadcastRecipientEntity>);
  }

  /** The pending recipients of a slice of seqs. Index: {broadcast_id, status, seq}. */
  findPendingInRange(scope: BusinessScope, broadcastId: string, fromSeq: number, toSeq: number): Promise<BroadcastRecipientEntity[]> {
    return this.collection()
      .find(scopedFilter(scope, { broadcast_id: broadcastId, status: 'pending', seq: { $gte: fromSeq, $lt: toSeq } }) as Filter<BroadcastRecipientEntity>)
      .sort({ seq: 1 })
      .toArray() as Promise<BroadcastRecipientEntity[]>;
  }

  /** The seqs of every pending recipient, in order (a re-dispatch). Index: {broadcast_id, status, seq}. */
  async pendingSeqs(scope: BusinessScope, broadcastId: string): Promise<number[]> {
    const rows = await this.collection()
      .find(scopedFilter(scope, { broadcast_id: broadcastId, status: 'pending' }) as Filter<BroadcastRecipientEntity>, { projection: { _id: 0, seq: 1 } })
      .sort({ seq: 1 })
      .toArray();
    return rows.map((row) => row.seq);
  }

  /** pending -> sending, only if still pending: the claim before the provider call. Index: {business_id, _id}. */
  claim(scope: BusinessScope, id: string, now: Date): Promise<BroadcastRecipientEntity | null> {
    return this.collection().findOneAndUpdate(
      scopedFilter(scope, { _id: id, status: 'pending' }) as Filter<BroadcastRecipientEntity>,
      { $set: { status: 'sending', claimed_at: now } },
      { returnDocument: 'after' },
    ) as Promise<BroadcastRecipientEntity | null>;
  }

  /** sending -> its outcome; false when it was no longer the sender's (settled meanwhile). */
  async finish(scope: BusinessScope, id: string, outcome: RecipientSendOutcome): Promise<boolean> {
    const result = await this.collection().updateOne(scopedFilter(scope, { _id: id, status: 'sending' }) as Filter<BroadcastRecipientEntity>, {
      $set: { ...outcome, claimed_at: null },
    });
    return result.modifiedCount === 1;
  }

  /** sending -> pending: nothing reached the provider (or it refused without taking it: `nextAttempt`). */
  async release(scope: BusinessScope, id: string, nextAttempt: boolean): Promise<boolean> {
    const result = await this.collection().updateOne(scopedFilter(scope, { _id: id, status: 'sending' }) as Filter<BroadcastRecipientEntity>, {
      $set: { status: 'pending', claimed_at: null },
      ...(nextAttempt ? { $inc: { attempt: 1 } } : {}),
    });
    return result.modifiedCount === 1;
  }

  /** Claims older than `before`, oldest first: their sender may have died. Index: {broadcast_id, status, claimed_at}. */
  findStaleClaims(scope: BusinessScope, broadcastId: string, before: Date, limit: number): Promise<BroadcastRecipientEntity[]> {
    return this.collection()
      .find(scopedFilter(scope, { broadcast_id: broadcastId, status: 'sending', claimed_at: { $lt: before } }) as Filter<BroadcastRecipientEntity>)
      .sort({ claimed_at: 1 })
      .limit(limit)
      .toArray() as Promise<BroadcastRecipientEntity[]>;
  }

  /** Whether any recipient is still pending or claimed. Index: {broadcast_id, status, seq}. */
  async hasOpenRecipients(scope: BusinessScope, broadcastId: string): Promise<boolean> {
    const open = await this.collection().findOne(scopedFilter(scope, { broadcast_id: broadcastId, status: { $in: ['pending', 'sending'] } }) as Filter<BroadcastRecipientEntity>, {
      projection: { _id: 1 },
    });
    return open !== null;
  }

  /** cancel: every pending recipient becomes skipped (cancelled). */
  async cancelPending(scope: BusinessScope, broadcastId: string): Promise<number> {
    const result = await this.collection().updateMany(scopedFilter(scope, { broadcast_id: broadcastId, status: 'pending' }) as Filter<BroadcastRecipientEntity>, {
      $set: { status: 'skipped', reason: 'cancelled' },
    });
    return result.modifiedCount;
  }

  /** retry-failed: failed with one of these provider codes -> pending, as a new attempt. */
  async retryFailed(scope: BusinessScope, broadcastId: string, providerCodes: readonly string[]): Promise<number> {
    const result = await this.collection().updateMany(
      scopedFilter(scope, { broadcast_id: broadcastId, status: 'failed', 'error.provider_code': { $in: [...providerCodes] } }) as Filter<BroadcastRecipientEntity>,
      { $set: { status: 'pending', error: null }, $unset: { message_id: '' }, $inc: { attempt: 1 } },
    );
    return result.modifiedCount;
  }

  /** Counts by state, skips by reason and failures by code, always adding up. */
  async countOutcomes(scope: BusinessScope, broadcastId: string): Promise<RecipientOutcomes> {
    const groups = await this.collection()
      .aggregate<{ _id: { status: RecipientState; reason: string | null; code: string | null }; count: number }>([
        { $match: scopedFilter(scope, { broadcast_id: broadcastId }) },
        { $group: { _id: { status: '$status', reason: '$reason', code: '$error.code' }, count: { $sum: 1 } } },
      ])
      .toArray();
    const outcomes: RecipientOutcomes = { byStatus: {}, skippedByReason: {}, failedByCode: {} };
    for (const { _id: key, count } of groups) {
      outcomes.byStatus[key.status] = (outcomes.byStatus[key.status] ?? 0) + count;
      if (key.status === 'skipped' && key.reason) outcomes.skippedByReason[key.reason] = (outcomes.skippedByReason[key.reason] ?? 0) + count;
      if (key.status === 'failed' && key.code) outcomes.failedByCode[key.code] = (outcomes.failedByCode[key.code] ?? 0) + count;
    }
    return outcomes;
  }

  /** A page of recipients in seq order, optionally of one state. Index: {broadcast_id, seq} / {broadcast_id, status, seq}. */
  listPage(scope: BusinessScope, broadcastId: string, options: { status?: RecipientState; afterSeq?: number; limit: number }): Promise<BroadcastRecipientEntity[]> {
    const filter: Record<string, unknown> = { broadcast_id: broadcastId };
    if (options.status) filter['status'] = options.status;
    if (options.afterSeq !== undefined) filter['seq'] = { $gt: options.afterSeq };
    return this.collection()
      .find(scopedFilter(scope, filter) as Filter<BroadcastRecipientEntity>)
      .sort({ seq: 1 })
      .limit(options.limit)
      .toArray() as Promise<BroadcastRecipientEntity[]>;
  }

  /** A provider status of a sent message moves its recipient forward (never back). Index: {business_id, message_id, status}. */
  async recordDelivery(scope: BusinessScope, messageId: string, status: 'delivered' | 'read'): Promise<void> {
    const earlier = DELIVERY_PROGRESS.slice(0, DELIVERY_PROGRESS.indexOf(status));
    await this.collection().updateOne(scopedFilter(scope, { message_id: messageId, status: { $in: [...earlier] } }) as Filter<BroadcastRecipientEntity>, { $set: { status } });
  }

  /** A customer's reply counts the sends to its conversation since `since` as replied. Index: {conversation_id, status, sent_at}. */
  async recordReply(scope: BusinessScope, conversationId: string, since: Date): Promise<void> {
    await this.collection().updateMany(
      scopedFilter(scope, { conversation_id: conversationId, sent_at: { $gte: since }, status: { $in: ['sent', 'delivered', 'read'] } }) as Filter<BroadcastRecipientEntity>,
      { $set: { status: 'replied' } },
    );
  }

  /** Stores recipients frozen as skipped after their contact was found a duplicate. */
  async insertSkipped(recipients: readonly BroadcastRecipientEntity[]): Promise<void> {
    if (recipients.length === 0) return;
    const operations: AnyBulkWriteOperation<BroadcastRecipientEntity>[] = recipients.map((recipient) => ({
      updateOne: { filter: { business_id: recipient.business_id, broadcast_id: recipient.broadcast_id, seq: recipient.seq }, update: { $setOnInsert: recipient }, upsert: true },
    }));
    await this.collection().bulkWrite(operations, { ordered: false });
  }
}
