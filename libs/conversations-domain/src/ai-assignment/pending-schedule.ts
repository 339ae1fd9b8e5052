import { type ScheduleHistoryEntry, scheduleHistoryEntry } from '@cmsg/conversation-commands';
import { CatalogError } from '@cmsg/errors';
import type { BusinessScope, ScheduledMessageEntity } from '@cmsg/dal';
import { type OutboxRecorder, cancelPendingSchedule as cancelWithEvent } from '@cmsg/events';
import type { ActionActor } from '../action-support/action-actor';
import type { StoredConversation } from '../conversation/conversation-resolver';
import type { DefaultScheduledTemplate, PendingSchedules } from './ai-assignment-ports';
import { type NewScheduleOwner, reassignedScheduleFields } from './schedule-reassignment';

/** The conversation's pending schedule (the one holding its pending key), if any. */
export function loadPendingSchedule(schedules: Pick<PendingSchedules, 'pendingOfConversation'>, scope: BusinessScope, conversation: Pick<StoredConversation, '_id'>): Promise<ScheduledMessageEntity | null> {
  return schedules.pendingOfConversation(scope, conversation._id);
}

/** An owner change's history entry: its details are top-level fields of the entry, as stored before. */
function ownerChangeEntry(event: 'cancelled' | 'reassigned', status: 'cancelled' | 'pending', actor: ActionActor, now: Date, fields: Record<string, unknown> = {}): ScheduleHistoryEntry {
  return { ...scheduleHistoryEntry(event, status, now, { reason: 'owner_change', actor }), ...fields };
}

/** pending -> cancelled, with its event (conditional: a schedule that fired meanwhile goes on, and the owner change too). */
export async function cancelPendingSchedule(
  schedules: PendingSchedules,
  outbox: OutboxRecorder,
  scope: BusinessScope,
  schedule: ScheduledMessageEntity,
  actor: ActionActor,
  now: Date,
): Promise<void> {
  await cancelWithEvent(schedules, outbox, scope, schedule, ownerChangeEntry('cancelled', 'cancelled', actor, now));
}

/** Keeps the schedule pending for the new owner (conditional on it being pending, as above). */
export async function reassignPendingSchedule(
  schedules: PendingSchedules,
  scope: BusinessScope,
  schedule: ScheduledMessageEntity,
  owner: NewScheduleOwner,
  actor: ActionActor,
  now: Date,
): Promise<void> {
  const fields = reassignedScheduleFields(schedule, owner);
  await schedules.reassignPending(scope, schedule._id, fields, ownerChangeEntry('reassigned', 'pending', actor, now, { executor_kind: fields.executor_kind, ai_employee_id: fields.ai_employee_id ?? null }));
}

/**
 * The template humans send when they inherit a schedule: the schedule's own fallback, else the
 * channel's default scheduled template (what the AI branch would have used, SPEC 4.1).
 */
export async function fallbackTemplateOf(
  defaultScheduledTemplate: DefaultScheduledTemplate,
  scope: BusinessScope,
  schedule: ScheduledMessageEntity,
  conversation: StoredConversation,
): Promise<string> {
  const templateId = schedule.template_id ?? (await defaultScheduledTemplate(scope, conversation.channel_id));
  if (!templateId) {
    throw new CatalogError('TEMPLATE_NOT_FOUND', 'The pending scheduled message has no fallback template a human could send; use scheduled_message_action cancel.');
  }
  return templateId;
}
