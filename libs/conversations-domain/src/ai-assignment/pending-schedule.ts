import { CatalogError } from '@cmsg/errors';
import { type BusinessScope, ChannelModel, ScheduledMessageModel, type ScheduledMessageEntity, TemplateModel, scopedFilter } from '@cmsg/dal';
import type { ActionActor } from '../action-support/action-actor';
import type { StoredConversation } from '../resolve-conversation-reference';
import { type NewScheduleOwner, reassignedScheduleFields } from './schedule-reassignment';

export type StoredSchedule = ScheduledMessageEntity & { _id: string };

/** The schedule conversation.pending_schedule_id points to, if it is still pending. */
export async function loadPendingSchedule(scope: BusinessScope, conversation: StoredConversation): Promise<StoredSchedule | null> {
  if (!conversation.pending_schedule_id) return null;
  return ScheduledMessageModel.findOne(scopedFilter(scope, { _id: conversation.pending_schedule_id, status: 'pending' })).lean<StoredSchedule>();
}

function historyEntry(event: 'cancelled' | 'reassigned', status: string, actor: ActionActor, now: Date, detail: Record<string, unknown> = {}) {
  return { at: now, event, status, reason: 'owner_change', actor, ...detail };
}

/**
 * Compare-and-set on status pending: a schedule that fired or was cancelled meanwhile is left as
 * it is (the owner change goes on, there is nothing left to cancel).
 */
export async function cancelPendingSchedule(scope: BusinessScope, schedule: StoredSchedule, actor: ActionActor, now: Date): Promise<void> {
  await ScheduledMessageModel.findOneAndUpdate(
    scopedFilter(scope, { _id: schedule._id, status: 'pending' }),
    { $set: { status: 'cancelled', updated_at: now }, $push: { history: historyEntry('cancelled', 'cancelled', actor, now) } },
    { new: true },
  ).lean();
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
  const channel = await ChannelModel.findOne(scopedFilter(scope, { _id: conversation.channel_id }), { default_scheduled_template: 1 }).lean<{
    default_scheduled_template?: string | null;
  }>();
  const templateName = channel?.default_scheduled_template;
  const template = templateName
    ? await TemplateModel.findOne(scopedFilter(scope, { channel_id: conversation.channel_id, name: templateName }), { _id: 1 }).lean<{ _id: string }>()
    : null;
  if (!template) {
    throw new CatalogError(
      'TEMPLATE_NOT_FOUND',
      'The pending scheduled message has no fallback template a human could send; use scheduled_message_action cancel.',
    );
  }
  return template._id;
}
