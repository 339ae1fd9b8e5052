import type { ActionErrorRecord, ActionGroupEntity, OutboxEntry } from '@cmsg/dal';
import { SYSTEM_AUTHOR, outboxEntry } from '@cmsg/events';
import { actionFailedEvent, actionGroupFinishedEvent, deterministicUuid } from '../webhooks/webhook-events';

/*
 * The outbox entries of a group's writes (docs/events.md). The public ones carry the data and the
 * id of the webhook event of the same type, so a delivery's event_id is the event's id.
 */

/** action.failed, for the write that records the failure of action `index`. */
export function actionFailedEntry(group: ActionGroupEntity, index: number, error: ActionErrorRecord | null, at: Date): OutboxEntry {
  const failed = { ...group, actions: group.actions.map((action) => (action.index === index ? { ...action, status: 'failed' as const, error } : action)) };
  const event = actionFailedEvent(failed, index, at);
  return outboxEntry('action.failed', group.conversation_id, event.data, SYSTEM_AUTHOR, at, event.id);
}

/** action_group.finished, for the write that sets the group's final status. */
export function actionGroupFinishedEntry(group: ActionGroupEntity, status: 'succeeded' | 'failed', at: Date): OutboxEntry {
  const event = actionGroupFinishedEvent({ ...group, status, finished_at: at }, at);
  return outboxEntry('action_group.finished', group.conversation_id, event.data, SYSTEM_AUTHOR, at, event.id);
}

/**
 * action_group.escalated (the timeline's action_group_escalated row), for the write that sets the
 * escalation flag; the reason is the error code that escalated the group.
 */
export function actionGroupEscalatedEntry(group: ActionGroupEntity, reason: string, at: Date): OutboxEntry {
  return outboxEntry('action_group.escalated', group.conversation_id, { action_group_uuid: group._id, reason }, SYSTEM_AUTHOR, at, deterministicUuid(group._id, 'action_group.escalated'));
}
