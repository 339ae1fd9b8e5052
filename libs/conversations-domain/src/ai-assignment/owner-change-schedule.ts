import type { BusinessScope } from '@cmsg/dal';
import type { ActionActor } from '../action-support/action-actor';
import type { StoredConversation } from '../conversation/conversation-resolver';
import type { AiAssignmentPorts } from './ai-assignment-ports';
import { cancelPendingSchedule, fallbackTemplateOf, loadPendingSchedule, reassignPendingSchedule } from './pending-schedule';
import { type ScheduleHandling, type ScheduledMessageAction, scheduleHandlingFor } from './scheduled-message-action';

export type NextOwner = { kind: 'ai_employee'; aiEmployeeId: string } | { kind: 'human_user' };

/**
 * The schedule half of an owner change (CONTRACT 3, last bullet), done before the conversation is
 * updated: without transactions, a failure in between leaves the schedule already handled and a
 * retry of the request finds nothing pending, instead of a schedule firing for the wrong owner.
 */
export async function handlePendingScheduleForOwnerChange(
  ports: Pick<AiAssignmentPorts, 'schedules' | 'defaultScheduledTemplate' | 'outbox'>,
  scope: BusinessScope,
  conversation: StoredConversation,
  action: ScheduledMessageAction | undefined,
  next: NextOwner,
  actor: ActionActor,
  now: Date,
): Promise<{ handling: ScheduleHandling; seenScheduleId: string | null }> {
  const { schedules } = ports;
  const schedule = await loadPendingSchedule(schedules, scope, conversation);
  const seenScheduleId = schedule?._id ?? null;
  const handling = scheduleHandlingFor(schedule !== null, action);
  if (!schedule || handling === 'none') return { handling, seenScheduleId };
  if (handling === 'cancel') {
    await cancelPendingSchedule(schedules, ports.outbox, scope, schedule, actor, now);
  } else if (next.kind === 'ai_employee') {
    await reassignPendingSchedule(schedules, scope, schedule, { kind: 'ai_employee', aiEmployeeId: next.aiEmployeeId }, actor, now);
  } else {
    const fallbackTemplateId = await fallbackTemplateOf(ports.defaultScheduledTemplate, scope, schedule, conversation);
    await reassignPendingSchedule(schedules, scope, schedule, { kind: 'human_user', fallbackTemplateId }, actor, now);
  }
  return { handling, seenScheduleId };
}
