import type { ScheduleActor } from '@cmsg/conversation-commands';
import { CatalogError } from '@cmsg/errors';
import { type BusinessScope, type ScheduleSlot, latestScheduleSlot, replaceScheduleSlot } from '@cmsg/dal';
import { cancelSchedule } from '../manage/cancel-schedule';
import type { ScheduledMessageRepository, StoredSchedule } from '../scheduled-message.repository';

/** Slot compare-and-set attempts when other creates keep replacing the schedule meanwhile. */
const MAX_LINK_ATTEMPTS = 5;

/**
 * Makes a just-inserted schedule the conversation's one pending schedule (SPEC 3.2) without
 * transactions: a compare-and-set of the conversation's schedule slot (an insert of its next seq,
 * which exactly one writer wins, also on FerretDB) from the slot read, then the previous schedule
 * is cancelled. A concurrent create that took the slot first is replaced in turn, as if it had come
 * first; an owner change meanwhile, or a slot that keeps moving, leaves this schedule cancelled (its
 * id stays used) and answers SCHEDULE_CONFLICT.
 *
 * Crash windows: before the slot moves the new schedule holds nothing, and the firer cancels a
 * schedule that does not hold its conversation's slot instead of firing it; after it moves, the
 * previous schedule no longer holds it either, so it cannot fire even if its cancellation was not
 * written.
 */
export async function linkAsPendingSchedule(
  repository: ScheduledMessageRepository,
  scope: BusinessScope,
  schedule: StoredSchedule,
  slotAsRead: ScheduleSlot,
  ownerAsRead: string | null,
  context: { actor: ScheduleActor; now: () => Date },
): Promise<void> {
  let expected = slotAsRead;
  for (let attempt = 1; attempt <= MAX_LINK_ATTEMPTS; attempt += 1) {
    if (await replaceScheduleSlot(scope, schedule.conversation_id, expected, schedule._id, context.now())) {
      if (expected.scheduleId) {
        await cancelSchedule(repository, scope, { _id: expected.scheduleId, conversation_id: schedule.conversation_id }, 'replaced', context.actor, context.now(), {
          replaced_by: schedule._id,
        });
      }
      return;
    }
    const owner = await repository.conversationOwner(scope, schedule.conversation_id);
    if (!owner || owner.aiEmployeeId !== ownerAsRead) {
      await cancelSchedule(repository, scope, schedule, 'owner_changed', context.actor, context.now());
      throw new CatalogError('SCHEDULE_CONFLICT', 'The conversation owner changed while the schedule was being created; retry with a new scheduled_uuid or none.');
    }
    expected = await latestScheduleSlot(scope, schedule.conversation_id);
  }
  await cancelSchedule(repository, scope, schedule, 'concurrent_change', context.actor, context.now());
  throw new CatalogError('SCHEDULE_CONFLICT', 'Concurrent schedule changes on this conversation; retry with a new scheduled_uuid or none.');
}
