import { CatalogError } from '@cmsg/errors';
import type { BusinessScope } from '@cmsg/dal';
import type { ActionActor } from '../action-support/action-actor';
import { MAX_CHANGE_ROUNDS } from '../conversation-change';
import { ASSIGNMENT_CHANGED, conversationChangeEvent } from '../conversation-events';
import type { ConversationOutbox } from '../conversation-outbox';
import { repositories } from '../repositories';
import { reloadConversation, type StoredConversation } from '../resolve-conversation-reference';
import { loadPendingSchedule } from './pending-schedule';
import type { ScheduleHandling } from './scheduled-message-action';

export interface OwnerChange {
  /** False when another change made it first (the owner already was the target). */
  changed: boolean;
  conversation: StoredConversation;
}

/**
 * Sets the owner (an AI employee id, or null for the human team) by one update of the
 * conversation whose filter holds the owner it replaces, with its event: of concurrent changes
 * each real one is made once, and a change to the owner already there is no change. A schedule
 * that became pending since the conversation was read (validated against the old owner) is not
 * overwritten silently: SCHEDULE_CONFLICT.
 */
export async function changeConversationOwner(
  scope: BusinessScope,
  outbox: ConversationOutbox,
  conversation: StoredConversation,
  aiEmployeeId: string | null,
  schedule: { handling: ScheduleHandling; seenScheduleId: string | null },
  now: Date,
  actor: ActionActor,
): Promise<OwnerChange> {
  if (schedule.handling === 'none') await assertNoScheduleSince(scope, conversation, schedule.seenScheduleId);
  let current = conversation;
  for (let round = 0; round < MAX_CHANGE_ROUNDS; round += 1) {
    const from = current.ai_employee_id ?? null;
    if (from === aiEmployeeId) return { changed: false, conversation: current };
    const event = conversationChangeEvent(ASSIGNMENT_CHANGED, scope, current._id, { from, to: aiEmployeeId }, actor, now);
    const changed = await repositories.conversations.changeOwner(scope, current._id, { from, to: aiEmployeeId, event, now });
    if (changed) {
      await outbox.publishQuietly(scope, changed._id, event);
      return { changed: true, conversation: changed };
    }
    current = await reloadConversation(scope, current._id);
  }
  throw new CatalogError('UPDATE_FAILED', 'The conversation owner kept changing during the update; retry.');
}

async function assertNoScheduleSince(scope: BusinessScope, conversation: StoredConversation, seenScheduleId: string | null): Promise<void> {
  const pending = (await loadPendingSchedule(scope, conversation))?._id;
  if (pending && pending !== seenScheduleId) {
    throw new CatalogError('SCHEDULE_CONFLICT', 'A scheduled message of the conversation changed during the owner change; retry.');
  }
}
