import type { ScheduleHistoryEntry } from '@cmsg/conversation-commands';
import { BusinessRepository, type BusinessScope, ConversationRepository, ScheduledMessageModel, type ScheduledMessageEntity, scopedFilter, isDuplicateKeyError } from '@cmsg/dal';

export type StoredSchedule = ScheduledMessageEntity & { _id: string };

const businesses = new BusinessRepository();
const conversations = new ConversationRepository();

/**
 * The scheduler's reads and writes of scheduled message records. Decisions taken once (fate,
 * firing attempts, the conversation's pending schedule) are claims in @cmsg/dal's
 * schedule-coordination; the record's fields mirror them. Tenant queries take a BusinessScope;
 * the firing queries span every business on purpose.
 */
export class ScheduledMessageRepository {
  /** Any business: ids are global (the unique _id), so a reused id conflicts whoever used it. */
  async idExists(id: string): Promise<boolean> {
    return (await ScheduledMessageModel.exists({ _id: id })) !== null;
  }

  /** False when the id exists already (a concurrent create with the same scheduled_uuid). */
  async insert(schedule: StoredSchedule): Promise<boolean> {
    try {
      await ScheduledMessageModel.create(schedule);
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  find(scope: BusinessScope, id: string): Promise<StoredSchedule | null> {
    return ScheduledMessageModel.findOne(scopedFilter(scope, { _id: id })).lean<StoredSchedule>();
  }

  /** The conversation's owner as read for the branch rules. */
  async conversationOwner(scope: BusinessScope, conversationId: string): Promise<{ aiEmployeeId: string | null } | null> {
    const conversation = await conversations.findById(scope, conversationId);
    return conversation ? { aiEmployeeId: conversation.ai_employee_id ?? null } : null;
  }

  /**
   * Writes the cancellation on the record; only the winner of the schedule's fate claim calls it.
   * Without an entry it only repairs the status (a cancellation written before, then lost).
   */
  async recordCancelled(scope: BusinessScope, id: string, entry: ScheduleHistoryEntry | null): Promise<void> {
    const update = entry
      ? { $set: { status: 'cancelled', fire_lease_until: null, updated_at: entry.at }, $push: { history: entry } }
      : { $set: { status: 'cancelled', fire_lease_until: null } };
    await ScheduledMessageModel.updateOne(scopedFilter(scope, { _id: id, status: { $in: ['pending', 'cancelled'] } }), update);
  }

  pendingOfConversation(scope: BusinessScope, conversationId: string): Promise<StoredSchedule[]> {
    return ScheduledMessageModel.find(scopedFilter(scope, { conversation_id: conversationId, status: 'pending' })).lean<StoredSchedule[]>();
  }

  // ---- firing (every business) ----

  /**
   * Pending real-time schedules of one minute bucket (due_minute), whole records. Equality on
   * top-level fields only: FerretDB filters it in PostgreSQL and ships just the bucket's records.
   */
  pendingInMinute(dueMinute: string): Promise<StoredSchedule[]> {
    return ScheduledMessageModel.find({ due_minute: dueMinute, status: 'pending', is_tester: false }).lean<StoredSchedule[]>();
  }

  /**
   * Every pending real-time schedule due at `now`, whatever its bucket (also records without one):
   * the firer's catch-up after a start and now and then. On FerretDB the range part is filtered
   * after every pending record was shipped, so this runs rarely.
   */
  dueRealSchedules(now: Date): Promise<StoredSchedule[]> {
    return ScheduledMessageModel.find({ status: 'pending', is_tester: false, schedule_at: { $lte: now } }).lean<StoredSchedule[]>();
  }

  /** Businesses with pending tester schedules, each with its virtual clock offset. */
  async testerClocks(): Promise<Map<string, number>> {
    const businessIds = (await ScheduledMessageModel.distinct('business_id', { status: 'pending', is_tester: true })) as string[];
    if (businessIds.length === 0) return new Map();
    const clocks = await businesses.findManyAcrossBusinesses(businessIds);
    return new Map(clocks.map((business) => [business._id, business.tester_clock_offset_ms ?? 0]));
  }

  /** Tester schedules of one business due at its virtual now (schedule_at is virtual time). */
  dueTesterSchedules(businessId: string, virtualNow: Date, limit: number): Promise<StoredSchedule[]> {
    return ScheduledMessageModel.find({ business_id: businessId, status: 'pending', is_tester: true, schedule_at: { $lte: virtualNow } })
      .sort({ schedule_at: 1 })
      .limit(limit)
      .lean<StoredSchedule[]>();
  }

  findAny(id: string): Promise<StoredSchedule | null> {
    return ScheduledMessageModel.findOne({ _id: id }).lean<StoredSchedule>();
  }

  /** Written by the winner of a firing attempt claim, after producing its command. */
  async recordFired(id: string, attempt: { owner: string; number: number; at: Date; leaseUntil: Date }, entry: ScheduleHistoryEntry | null): Promise<void> {
    const fields = { status: 'firing', fire_owner: attempt.owner, fire_attempts: attempt.number, fire_lease_until: attempt.leaseUntil, updated_at: attempt.at };
    await ScheduledMessageModel.updateOne(
      { _id: id, status: { $in: ['pending', 'firing'] } },
      entry ? { $set: { ...fields, fired_at: attempt.at }, $push: { history: entry } } : { $set: fields },
    );
  }

  /**
   * Mirrors a first firing (attempt 1) on its record, by id (an indexed lookup). A record the
   * executor finished meanwhile is no longer pending and keeps its outcome.
   */
  async recordFirstFiring(id: string, firing: { owner: string; at: Date; leaseUntil: Date }, entry: ScheduleHistoryEntry): Promise<void> {
    const fields = { status: 'firing', fire_owner: firing.owner, fire_attempts: 1, fire_lease_until: firing.leaseUntil, fired_at: firing.at, updated_at: firing.at };
    await ScheduledMessageModel.updateOne({ _id: id, status: 'pending' }, { $set: fields, $push: { history: entry } });
  }

  /** Schedules recorded as firing whose last command went out before `producedBefore`. */
  async staleFiring(producedBefore: Date, limit: number): Promise<string[]> {
    const stale = await ScheduledMessageModel.find({ status: 'firing', fire_lease_until: { $lt: producedBefore } }, { _id: 1 }).limit(limit).lean<{ _id: string }[]>();
    return stale.map((schedule) => schedule._id);
  }

  /** Mirrors an outcome (or a failure the scheduler decided) on the record. */
  async recordOutcome(id: string, outcome: { status: string; error: { code: string; message: string } | null }, entry: ScheduleHistoryEntry | null): Promise<void> {
    const fields = { status: outcome.status, error: outcome.error, fire_lease_until: null };
    await ScheduledMessageModel.updateOne({ _id: id }, entry ? { $set: { ...fields, updated_at: entry.at }, $push: { history: entry } } : { $set: fields });
  }
}
