import { ConversationModel, ConversationScheduleSlotModel, ScheduleClaimModel } from '../models';
import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { isDuplicateKeyError, lostInsertPositions } from '../shared/duplicate-key';

/*
 * Decisions about scheduled messages taken exactly once, also on FerretDB 1.x whose updates are not
 * isolated (see the note on schedule_claims in models.ts): each is an insert with a deterministic _id.
 */

export type ScheduleClaimKind = 'fate' | 'fire' | 'delivery' | 'outcome';

export interface ScheduleClaim {
  _id: string;
  schedule_id: string;
  kind: ScheduleClaimKind;
  data: Record<string, unknown> | null;
  created_at: Date;
}

export function scheduleClaimId(kind: ScheduleClaimKind, scheduleId: string, attempt?: number): string {
  return attempt === undefined ? `${kind}:${scheduleId}` : `${kind}:${scheduleId}:${attempt}`;
}

function claimDocument(kind: ScheduleClaimKind, { scope, scheduleId, data }: ScheduleClaimRequest, now: Date, attempt?: number): ScheduleClaim & { business_id: string } {
  return { _id: scheduleClaimId(kind, scheduleId, attempt), business_id: scope.businessId, schedule_id: scheduleId, kind, data, created_at: now };
}

/** Inserts the claim; true for the one caller that created it, false when it existed. */
export async function claimOnce(scope: BusinessScope, kind: ScheduleClaimKind, scheduleId: string, data: Record<string, unknown>, now: Date, attempt?: number): Promise<boolean> {
  try {
    await ScheduleClaimModel.create(claimDocument(kind, { scope, scheduleId, data }, now, attempt));
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

export interface ScheduleClaimRequest {
  scope: BusinessScope;
  scheduleId: string;
  data: Record<string, unknown>;
}

/**
 * claimOnce for many schedules in one round trip (an unordered insertMany): answers the schedule
 * ids whose claim this call created. A failure other than lost claims is thrown, and then it is
 * unknown which claims were written: they are found later as claims without a recorded firing.
 */
export async function claimMany(kind: ScheduleClaimKind, requests: readonly ScheduleClaimRequest[], now: Date): Promise<Set<string>> {
  if (requests.length === 0) return new Set();
  const documents = requests.map((request) => claimDocument(kind, request, now));
  let lost = new Set<number>();
  try {
    await ScheduleClaimModel.collection.insertMany(documents as never[], { ordered: false });
  } catch (error) {
    lost = lostInsertPositions(error);
  }
  return new Set(requests.filter((_, position) => !lost.has(position)).map((request) => request.scheduleId));
}

export function readClaim(scope: BusinessScope, kind: ScheduleClaimKind, scheduleId: string, attempt?: number): Promise<ScheduleClaim | null> {
  return ScheduleClaimModel.findOne(scopedFilter(scope, { _id: scheduleClaimId(kind, scheduleId, attempt) })).lean<ScheduleClaim>();
}

export function claimsOfSchedule(scope: BusinessScope, scheduleId: string): Promise<ScheduleClaim[]> {
  return ScheduleClaimModel.find(scopedFilter(scope, { schedule_id: scheduleId })).lean<ScheduleClaim[]>();
}

export interface ScheduleSlot {
  seq: number;
  scheduleId: string | null;
}

/** The conversation's latest slot: which schedule is its pending one (seq 0, none, before any). */
export async function latestScheduleSlot(scope: BusinessScope, conversationId: string): Promise<ScheduleSlot> {
  const [latest] = await ConversationScheduleSlotModel.find(scopedFilter(scope, { conversation_id: conversationId }), { seq: 1, schedule_id: 1 })
    .sort({ seq: -1 })
    .limit(1)
    .lean<{ seq: number; schedule_id: string | null }[]>();
  return latest ? { seq: latest.seq, scheduleId: latest.schedule_id ?? null } : { seq: 0, scheduleId: null };
}

/**
 * Compare-and-set of the conversation's pending schedule from the slot read to `scheduleId` (null:
 * none): true for the one writer of the next seq. The conversation's pending_schedule_id mirror is
 * then brought up to date with the log.
 */
export async function replaceScheduleSlot(scope: BusinessScope, conversationId: string, expected: ScheduleSlot, scheduleId: string | null, now: Date): Promise<boolean> {
  const seq = expected.seq + 1;
  try {
    await ConversationScheduleSlotModel.create({
      _id: `${conversationId}:${seq}`,
      business_id: scope.businessId,
      conversation_id: conversationId,
      seq,
      schedule_id: scheduleId,
      previous_schedule_id: expected.scheduleId,
      created_at: now,
    });
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
  await mirrorScheduleSlot(scope, conversationId, scheduleId, now);
  return true;
}

/**
 * Writes the log's latest value into conversation.pending_schedule_id: writers that finish in any
 * order converge on the latest, because each checks the log again after its own write.
 */
async function mirrorScheduleSlot(scope: BusinessScope, conversationId: string, written: string | null, now: Date): Promise<void> {
  let value = written;
  for (let round = 0; round < 3; round += 1) {
    await ConversationModel.updateOne(scopedFilter(scope, { _id: conversationId }), { $set: { pending_schedule_id: value, updated_at: now } });
    const latest = await latestScheduleSlot(scope, conversationId);
    if (latest.scheduleId === value) return;
    value = latest.scheduleId;
  }
}

/** Ends a schedule's hold on its conversation, if it still holds it (fired, cancelled). */
export async function releaseScheduleSlot(scope: BusinessScope, conversationId: string, scheduleId: string, now: Date): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const latest = await latestScheduleSlot(scope, conversationId);
    if (latest.scheduleId !== scheduleId) return;
    if (await replaceScheduleSlot(scope, conversationId, latest, null, now)) return;
  }
}

/** The latest slot of each of several conversations (one query for a batch). */
export async function latestScheduleSlots(conversationIds: readonly string[]): Promise<Map<string, ScheduleSlot>> {
  const slots = await ConversationScheduleSlotModel.find({ conversation_id: { $in: [...new Set(conversationIds)] } }, { conversation_id: 1, seq: 1, schedule_id: 1 }).lean<
    { conversation_id: string; seq: number; schedule_id: string | null }[]
  >();
  const latest = new Map<string, ScheduleSlot>();
  for (const slot of slots) {
    if ((latest.get(slot.conversation_id)?.seq ?? 0) < slot.seq) latest.set(slot.conversation_id, { seq: slot.seq, scheduleId: slot.schedule_id ?? null });
  }
  return latest;
}

/** Whether the schedule is its conversation's pending one (the log, else the mirror for schedules older than the log). */
export async function holdsScheduleSlot(scope: BusinessScope, conversationId: string, scheduleId: string): Promise<boolean> {
  const latest = await latestScheduleSlot(scope, conversationId);
  if (latest.seq > 0) return latest.scheduleId === scheduleId;
  return (await ConversationModel.exists(scopedFilter(scope, { _id: conversationId, pending_schedule_id: scheduleId }))) !== null;
}
