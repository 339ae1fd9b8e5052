import { SCHEDULE_HISTORY_LIMIT, type ScheduleHistoryEntry } from '@cmsg/conversation-commands';
import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { duplicateKeyIndex, isDuplicateKeyError } from '../shared/duplicate-key';
import type { OutboxEntry } from '../shared/outbox-entry.schema';
import type { DueSchedule, ScheduledMessageEntity } from './scheduled-message.entity';
import { ScheduledMessageModel } from './scheduled-message.schema';

/**
 * The key a schedule holds while it is its conversation's pending one. The business is part of
 * the value, so the one-field unique sparse index both keeps one pending schedule per conversation
 * and serves the tenant's lookup: a compound sparse index would index every schedule on MongoDB (a
 * document is left out only when all its keys are missing).
 */
export function pendingConversationKey(scope: BusinessScope, conversationId: string): string {
  return `${scope.businessId}:${conversationId}`;
}

export type InsertPendingResult = 'inserted' | 'conversation_has_pending' | 'id_taken';

export type ScheduleOutcome = { status: 'sent' | 'failed'; error: { code: string; message: string } | null };

export type ExecutingStatus = 'firing' | 'sending';

/** What a firer writes when it claims schedules: who claimed them and until when it may still be producing. */
export interface FireClaim {
  claim: string;
  leaseUntil: Date;
  at: Date;
  entry: ScheduleHistoryEntry;
}

const pushEntries = (...entries: ScheduleHistoryEntry[]) => ({ history: { $each: entries, $slice: -SCHEDULE_HISTORY_LIMIT } });

/** Every transition out of pending drops the keys only a pending schedule holds. */
const LEAVES_PENDING = { pending_conversation_key: '', pending_id: '' } as const;

function cancellation(entry: ScheduleHistoryEntry, event: OutboxEntry) {
  return { $set: { status: 'cancelled', updated_at: entry.at }, $unset: LEAVES_PENDING, $push: { ...pushEntries(entry), outbox: event } };
}

/** What the firer reads of due schedules (DueSchedule). */
const DUE_FIELDS = { business_id: 1, conversation_id: 1, status: 1, is_tester: 1, executor_kind: 1, created_by_token_id: 1, schedule_at: 1 } as const;

/**
 * Every query and write of scheduled_messages. Filters list the most selective key first: the local
 * server scans a collection for a filter that pins no unique index, and stops checking a document at
 * its first key that does not match. Methods named `...InAnyBusiness` span businesses on purpose
 * (the firer's).
 */
export class ScheduledMessageRepository {
  /** A schedule id is global (the unique _id): a reused one conflicts whichever business used it. */
  async idTakenInAnyBusiness(id: string): Promise<boolean> {
    return (await ScheduledMessageModel.exists({ _id: id })) !== null;
  }

  find(scope: BusinessScope, id: string): Promise<ScheduledMessageEntity | null> {
    return ScheduledMessageModel.findOne(scopedFilter(scope, { _id: id })).lean<ScheduledMessageEntity>();
  }

  /** The conversation's pending schedule, if it has one. */
  pendingOfConversation(scope: BusinessScope, conversationId: string): Promise<ScheduledMessageEntity | null> {
    return ScheduledMessageModel.findOne({ pending_conversation_key: pendingConversationKey(scope, conversationId) }).lean<ScheduledMessageEntity>();
  }

  /**
   * Inserts a pending schedule holding its conversation's pending key (with its
   * scheduled_message.created entry in `outbox`); a lost unique key says which.
   */
  async insertPending(scope: BusinessScope, schedule: Omit<ScheduledMessageEntity, 'pending_conversation_key' | 'pending_id' | 'business_id'>): Promise<InsertPendingResult> {
    const document = { ...schedule, business_id: scope.businessId, pending_conversation_key: pendingConversationKey(scope, schedule.conversation_id), pending_id: schedule._id };
    try {
      await ScheduledMessageModel.collection.insertOne(document as never);
      return 'inserted';
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      return duplicateKeyIndex(error) === 'pending_conversation_key_1' ? 'conversation_has_pending' : 'id_taken';
    }
  }

  /** pending -> cancelled, with its scheduled_message.cancelled entry; answers the cancelled schedule, or null when it was not pending. */
  cancelPending(scope: BusinessScope, id: string, entry: ScheduleHistoryEntry, event: OutboxEntry): Promise<ScheduledMessageEntity | null> {
    return ScheduledMessageModel.findOneAndUpdate(scopedFilter(scope, { _id: id, status: 'pending' }), cancellation(entry, event), { returnDocument: 'after' }).lean<ScheduledMessageEntity>();
  }

  /** Keeps a pending schedule pending for a new owner; false when it was not pending any more. */
  async reassignPending(scope: BusinessScope, id: string, fields: Partial<ScheduledMessageEntity>, entry: ScheduleHistoryEntry): Promise<boolean> {
    const result = await ScheduledMessageModel.updateOne(scopedFilter(scope, { _id: id, status: 'pending' }), {
      $set: { ...fields, updated_at: entry.at },
      $push: pushEntries(entry),
    });
    return result.modifiedCount === 1;
  }

  // ---- firing (every business) ----

  /**
   * Due work of every business, earliest first, in one query (one scan on the local server):
   * pending real-time schedules whose time has come, every pending tester schedule (due on its
   * business's virtual clock, which the caller applies), and firings whose claimer died before
   * producing (lease expired). A pending tester schedule not yet due has a later schedule_at than
   * any real-time one that is: the virtual clock is never behind the real one.
   */
  dueInAnyBusiness(now: Date, limit: number): Promise<DueSchedule[]> {
    return ScheduledMessageModel.find(
      {
        $or: [
          { status: 'pending', schedule_at: { $lte: now }, is_tester: false },
          { status: 'pending', is_tester: true },
          { status: 'firing', fire_lease_until: { $lte: now } },
        ],
      },
      DUE_FIELDS,
    )
      .sort({ schedule_at: 1 })
      .limit(limit)
      .lean<DueSchedule[]>();
  }

  /** pending -> firing for those of `ids` still pending, in one update. */
  async claimPendingInAnyBusiness(ids: readonly string[], claim: FireClaim): Promise<number> {
    const result = await ScheduledMessageModel.updateMany(
      { pending_id: { $in: ids } },
      {
        $set: { status: 'firing', fire_claim: claim.claim, fire_lease_until: claim.leaseUntil, fired_at: claim.at, updated_at: claim.at },
        $unset: LEAVES_PENDING,
        $push: pushEntries(claim.entry),
      },
    );
    return result.modifiedCount;
  }

  /** Takes over those of `ids` still firing with their lease expired at `now`, in one update. */
  async takeOverExpiredInAnyBusiness(ids: readonly string[], now: Date, claim: FireClaim): Promise<number> {
    const result = await ScheduledMessageModel.updateMany(
      { status: 'firing', fire_lease_until: { $lte: now }, _id: { $in: ids } },
      { $set: { fire_claim: claim.claim, fire_lease_until: claim.leaseUntil, updated_at: claim.at }, $push: pushEntries(claim.entry) },
    );
    return result.modifiedCount;
  }

  /** The ids of those of `ids` that `claim` holds (one read by id after a claiming update that did not take them all). */
  async claimedInAnyBusiness(ids: readonly string[], claim: string): Promise<Set<string>> {
    const found = await ScheduledMessageModel.find({ _id: { $in: ids } }, { fire_claim: 1 }).lean<{ _id: string; fire_claim: string | null }[]>();
    return new Set(found.filter((schedule) => schedule.fire_claim === claim).map((schedule) => schedule._id));
  }

  /** Their commands were produced (acknowledged at `at`): no takeover any more. */
  async markProducedInAnyBusiness(ids: readonly string[], at: Date): Promise<void> {
    await ScheduledMessageModel.updateMany({ _id: { $in: ids } }, { $set: { produced_at: at }, $unset: { fire_lease_until: '' } });
  }

  // ---- execution (actions-runner) ----

  /**
   * firing -> sending with the delivery path decided (and the AI branch's context note) and the
   * schedule's scheduled_message.fired entry; answers the schedule as it is now, or null when it was
   * not firing (another run decided first).
   */
  startSending(
    scope: BusinessScope,
    id: string,
    decision: { delivery: string; noteId: string | null; at: Date },
    entries: ScheduleHistoryEntry[],
    events: OutboxEntry[],
  ): Promise<ScheduledMessageEntity | null> {
    return ScheduledMessageModel.findOneAndUpdate(
      scopedFilter(scope, { _id: id, status: 'firing' }),
      {
        $set: { status: 'sending', delivery: decision.delivery, note_id: decision.noteId, updated_at: decision.at },
        $unset: { fire_lease_until: '' },
        $push: { ...pushEntries(...entries), outbox: { $each: events } },
      },
      { returnDocument: 'after' },
    ).lean<ScheduledMessageEntity>();
  }

  /** The fallback after WINDOW_CLOSED replaces the decided path while sending. */
  async switchDelivery(scope: BusinessScope, id: string, delivery: string, entry: ScheduleHistoryEntry): Promise<void> {
    await ScheduledMessageModel.updateOne(scopedFilter(scope, { _id: id, status: 'sending' }), { $set: { delivery, updated_at: entry.at }, $push: pushEntries(entry) });
  }

  /**
   * firing | sending -> sent | failed, with the delivery path when it is recorded only now and the
   * outcome's outbox entries (scheduled_message.sent or .failed, and .fired when leaving firing);
   * false when the schedule was not in `from` (finished elsewhere).
   */
  async finish(
    scope: BusinessScope,
    id: string,
    from: ExecutingStatus,
    outcome: ScheduleOutcome,
    entries: ScheduleHistoryEntry[],
    events: OutboxEntry[],
    delivery?: string,
  ): Promise<boolean> {
    const at = entries[entries.length - 1]?.at ?? new Date();
    const result = await ScheduledMessageModel.updateOne(scopedFilter(scope, { _id: id, status: from }), {
      $set: { status: outcome.status, error: outcome.error, updated_at: at, ...(delivery ? { delivery } : {}) },
      $unset: { fire_lease_until: '' },
      $push: { ...pushEntries(...entries), outbox: { $each: events } },
    });
    return result.modifiedCount === 1;
  }
}
