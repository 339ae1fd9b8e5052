import { CatalogError } from '@cmsg/errors';

/** CONTRACT 3, owner changes: what happens to the pending schedule of a conversation whose owner changes. */
export type ScheduledMessageAction = 'reassign' | 'cancel';

export type ScheduleHandling = 'none' | ScheduledMessageAction;

/**
 * Any value other than reassign | cancel is 400 SCHEDULED_MESSAGE_ACTION_INVALID, whether or not
 * a schedule is pending: a wrong value is a client bug worth reporting early.
 */
export function parseScheduledMessageAction(value: string | undefined): ScheduledMessageAction | undefined {
  if (value === undefined) return undefined;
  if (value === 'reassign' || value === 'cancel') return value;
  throw new CatalogError('SCHEDULED_MESSAGE_ACTION_INVALID', `scheduled_message_action must be reassign or cancel, not '${value}'.`);
}

/** A pending schedule needs an explicit action; without one the action is not needed and ignored. */
export function scheduleHandlingFor(hasPendingSchedule: boolean, action: ScheduledMessageAction | undefined): ScheduleHandling {
  if (!hasPendingSchedule) return 'none';
  if (action === undefined) {
    throw new CatalogError(
      'SCHEDULED_MESSAGE_ACTION_REQUIRED',
      'The conversation has a pending scheduled message; send scheduled_message_action reassign or cancel.',
    );
  }
  return action;
}
