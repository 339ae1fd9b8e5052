import { type ScheduleActor, scheduleHistoryEntry } from '@cmsg/conversation-commands';
import { type BusinessScope, claimOnce, readClaim, releaseScheduleSlot } from '@cmsg/dal';
import type { ScheduledMessageRepository } from '../scheduled-message.repository';

/** A cancellation still missing on its record this long after its claim was decided lost it. */
export const CANCELLATION_REPAIR_AFTER_MS = 30_000;

export type CancelOutcome = 'cancelled' | 'already_cancelled' | 'fired';

/**
 * Cancels a schedule unless it fired: the schedule's fate (cancel or fire) is decided once, by the
 * first insert of its fate claim, so a DELETE, a replacement, a customer reply and the firer never
 * both win. The winner writes the record and releases the conversation if it still held it.
 */
export async function cancelSchedule(
  repository: ScheduledMessageRepository,
  scope: BusinessScope,
  schedule: { _id: string; conversation_id: string },
  reason: string,
  actor: ScheduleActor,
  now: Date,
  detail?: Record<string, unknown>,
): Promise<CancelOutcome> {
  if (await claimOnce(scope, 'fate', schedule._id, { decision: 'cancel', reason, actor }, now)) {
    await repository.recordCancelled(scope, schedule._id, scheduleHistoryEntry('cancelled', 'cancelled', now, { reason, actor, ...(detail ? { detail } : {}) }));
    await releaseScheduleSlot(scope, schedule.conversation_id, schedule._id, now);
    return 'cancelled';
  }
  const fate = await readClaim(scope, 'fate', schedule._id);
  if (fate?.data?.['decision'] !== 'cancel') return 'fired';
  // A cancellation whose record write was lost (or not done before a crash) is written again, but
  // not while its winner may still be writing it: FerretDB updates are not isolated, and this write
  // landing on the winner's could drop the winner's history entry.
  if (now.getTime() - fate.created_at.getTime() >= CANCELLATION_REPAIR_AFTER_MS) await repository.recordCancelled(scope, schedule._id, null);
  return 'already_cancelled';
}
