import { type ScheduleActor, scheduleHistoryEntry } from '@cmsg/conversation-commands';
import { CatalogError } from '@cmsg/errors';
import type { BusinessScope, ScheduledMessageEntity } from '@cmsg/dal';
import { type OutboxRecorder, authorOf, cancelPendingSchedule, outboxEntry, scheduleEventData } from '@cmsg/events';
import type { Clock, ConversationStore, ScheduleStore } from '../ports';

export type NewSchedule = Omit<ScheduledMessageEntity, 'pending_conversation_key' | 'pending_id' | 'business_id'>;

export interface StorePendingScheduleDependencies {
  schedules: Pick<ScheduleStore, 'pendingOfConversation' | 'insertPending' | 'cancelPending'>;
  /** Read again after the insert: the owner the rules were checked against must still be the owner. */
  conversations: Pick<ConversationStore, 'findById'>;
  events: OutboxRecorder;
  clock: Clock;
}

/**
 * Makes a validated schedule its conversation's one pending schedule (SPEC 3.2) without
 * transactions, in two writes ordered so that a crash between them leaves a state the API explains:
 *
 * 1. the conversation's pending schedule, if any, is cancelled (an update conditional on it being
 *    pending; reason `replaced`, detail `replaced_by`), with its scheduled_message.cancelled entry;
 * 2. the new schedule is inserted holding the conversation's pending key (unique sparse index), with
 *    its scheduled_message.created entry (the timeline's schedule_created row).
 *
 * A concurrent create that inserted first holds the key: this request answers SCHEDULE_CONFLICT,
 * having possibly cancelled the previous schedule (SPEC 7). A crash between 1 and 2 leaves the
 * previous schedule cancelled and this one never stored; a retry (same scheduled_uuid or none)
 * creates it. A schedule already stored under this request's id (a concurrent create with the same
 * scheduled_uuid) is neither cancelled nor replaced: 409, nothing changes. An owner change that
 * landed while this request validated its rules against the old owner cancels the new schedule
 * again (reason `owner_changed`) and answers SCHEDULE_CONFLICT.
 */
export async function storePendingSchedule(
  dependencies: StorePendingScheduleDependencies,
  scope: BusinessScope,
  schedule: NewSchedule,
  ownerAsRead: string | null,
  actor: ScheduleActor,
): Promise<void> {
  const { schedules, conversations, events, clock } = dependencies;
  const previous = await schedules.pendingOfConversation(scope, schedule.conversation_id);
  if (previous && previous._id !== schedule._id) {
    await cancelPendingSchedule(schedules, events, scope, previous, scheduleHistoryEntry('cancelled', 'cancelled', clock.now(), { reason: 'replaced', actor, detail: { replaced_by: schedule._id } }));
  }
  const created = outboxEntry('scheduled_message.created', schedule.conversation_id, scheduleEventData(schedule._id), authorOf(actor), schedule.created_at);
  const inserted = await schedules.insertPending(scope, { ...schedule, outbox: [created] });
  if (inserted === 'id_taken') throw scheduledUuidReused(schedule._id);
  if (inserted === 'inserted') await events.recordQuietly('scheduled_messages', scope, schedule._id, [created]);
  if (inserted === 'conversation_has_pending') {
    throw new CatalogError(
      'SCHEDULE_CONFLICT',
      "Another schedule of this conversation was created at the same moment (the previous pending one, if any, was cancelled); retry with a new scheduled_uuid or none.",
    );
  }
  const owner = (await conversations.findById(scope, schedule.conversation_id))?.ai_employee_id ?? null;
  if (owner !== ownerAsRead) {
    await cancelPendingSchedule(schedules, events, scope, schedule, scheduleHistoryEntry('cancelled', 'cancelled', clock.now(), { reason: 'owner_changed', actor }));
    throw new CatalogError('SCHEDULE_CONFLICT', 'The conversation owner changed while the schedule was being created; retry with a new scheduled_uuid or none.');
  }
}

export function scheduledUuidReused(id: string): CatalogError {
  return new CatalogError('SCHEDULE_CONFLICT', `scheduled_uuid ${id} was already used; retry with another scheduled_uuid or none.`);
}
