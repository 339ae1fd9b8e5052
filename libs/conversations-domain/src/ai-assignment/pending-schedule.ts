import { CatalogError } from '@cmsg/errors';
import { type BusinessScope, ScheduledMessageModel, type ScheduledMessageEntity, claimOnce, latestScheduleSlot, releaseScheduleSlot, scopedFilter } from '@cmsg/dal';
import type { ActionActor } from '../action-support/action-actor';
import { repositories } from '../repositories';
import type { StoredConversation } from '../resolve-conversation-reference';
import { type NewScheduleOwner, reassignedScheduleFields } from './schedule-reassignment';

export type StoredSchedule = ScheduledMessageEntity & { _id: string };

/** Which schedule holds the conversation: its slot log, else (before the log) conversation.pending_schedule_id. */
export async function pendingScheduleIdOf(scope: BusinessScope, conversation: StoredConversation): Promise<string | null> {
  const slot = await latestScheduleSlot(scope, conversation._id);
  return slot.seq > 0 ? slot.scheduleId : conversation.pending_schedule_id ?? null;
}

/** The schedule that holds the conversation, if it is still pending. */
export async function loadPendingSchedule(scope: BusinessScope, conversation: StoredConversation): Promise<StoredSchedule | null> {
  const scheduleId = await pendingScheduleIdOf(scope, conversation);
  if (!scheduleId) return null;
  return ScheduledMessageModel.findOne(scopedFilter(scope, { _id: scheduleId, status: 'pending' })).lean<StoredSchedule>();
}

function historyEntry(event: 'cancelled' | 'reassigned', status: string, actor: ActionActor, now: Date, detail: Record<string, unknown> = {}) {
  return { at: now, event, status, reason: 'owner_change', actor, ...detail };
}

/**
 * The schedule's fate (cancel or fire) is decided once, by the first insert of its fate claim (as
 * every cancellation does, libs/dal schedule-coordination): a schedule that fired meanwhile is left
 * as it is and the owner change goes on. The winner records the cancellation and frees the slot.
 */
export async function cancelPendingSchedule(scope: BusinessScope, schedule: StoredSchedule, actor: ActionActor, now: Date): Promise<void> {
  if (!(await claimOnce(scope, 'fate', schedule._id, { decision: 'cancel', reason: 'owner_change', actor }, now))) return;
  await ScheduledMessageModel.updateOne(scopedFilter(scope, { _id: schedule._id, status: { $in: ['pending', 'cancelled'] } }), {
    $set: { status: 'cancelled', fire_lease_until: null, updated_at: now },
    $push: { history: historyEntry('cancelled', 'cancelled', actor, now) },
  });
  await releaseScheduleSlot(scope, schedule.conversation_id, schedule._id, now);
  // A schedule that predates the slot log is known only to the conversation's pointer.
  if ((await latestScheduleSlot(scope, schedule.conversation_id)).seq === 0) {
    await repositories.conversations.clearPendingSchedule(scope, schedule.conversation_id, schedule._id, now);
  }
}

/** Keeps the schedule pending for the new owner (compare-and-set on status pending, as above). */
export async function reassignPendingSchedule(scope: BusinessScope, schedule: StoredSchedule, owner: NewScheduleOwner, actor: ActionActor, now: Date): Promise<void> {
  const fields = reassignedScheduleFields(schedule, owner);
  await ScheduledMessageModel.findOneAndUpdate(
    scopedFilter(scope, { _id: schedule._id, status: 'pending' }),
    {
      $set: { ...fields, updated_at: now },
      $push: { history: historyEntry('reassigned', 'pending', actor, now, { executor_kind: fields['executor_kind'], ai_employee_id: fields['ai_employee_id'] ?? null }) },
    },
    { new: true },
  ).lean();
}

/**
 * The template humans send when they inherit a schedule: the schedule's own fallback, else the
 * channel's default scheduled template (what the AI branch would have used, SPEC 4.1).
 */
export async function fallbackTemplateOf(scope: BusinessScope, schedule: StoredSchedule, conversation: StoredConversation): Promise<string> {
  if (schedule.template_id) return schedule.template_id;
  const channel = await repositories.channels.findById(scope, conversation.channel_id);
  const templateName = channel?.default_scheduled_template;
  const template = templateName ? await repositories.templates.findOnChannelByName(scope, conversation.channel_id, templateName) : null;
  if (!template) {
    throw new CatalogError(
      'TEMPLATE_NOT_FOUND',
      'The pending scheduled message has no fallback template a human could send; use scheduled_message_action cancel.',
    );
  }
  return template._id;
}
