import type { BusinessScope } from '@cmsg/dal';
import type { OutboxRecorder } from '@cmsg/events';
import type { ActionActor } from '../action-support/action-actor';
import type { StoredConversation } from '../conversation/resolve-conversation-reference';
import { cancelPendingSchedule, fallbackTemplateOf, loadPendingSchedule, reassignPendingSchedule } from './pending-schedule';
import { type ScheduleHandling, type ScheduledMessageAction, scheduleHandlingFor } from './scheduled-message-action';

export type NextOwner = { kind: 'ai_employee'; aiEmployeeId: string } | { kind: 'human_user' };

/**
 * The schedule half of an owner change (CONTRACT 3, last bullet), done before the conversation is
 * updated: without transactions, a failure in between leaves the schedule already handled and a
 * retry of the request finds nothing pending, instead of a schedule firing for the wrong owner.
 */
export async function handlePendingScheduleForOwnerChange(
  scope: BusinessScope,
  outbox: OutboxRecorder,
  conversation: StoredConversation,
  action: ScheduledMessageAction | undefined,
  next: NextOwner,
  actor: ActionActor,
  now: Date,
): Promise<{ handling: ScheduleHandling; seenScheduleId: string | null }> {
  const schedule = await loadPendingSchedule(scope, conversation);
  const seenScheduleId = schedule?._id ?? null;
  const handling = scheduleHandlingFor(schedule !== null, action);
  if (!schedule || handling === 'none') return { handling, seenScheduleId };
  if (handling === 'cancel') {
    await cancelPendingSchedule(scope, outbox, schedule, actor, now);
  } else if (next.kind === 'ai_employee') {
    await reassignPendingSchedule(scope, schedule, { kind: 'ai_employee', aiEmployeeId: next.aiEmployeeId }, actor, now);
  } else {
    const fallbackTemplateId = await fallbackTemplateOf(scope, schedule, conversation);
    await reassignPendingSchedule(scope, schedule, { kind: 'human_user', fallbackTemplateId }, actor, now);
  }
  return { handling, seenScheduleId };
}
