import { CatalogError } from '@cmsg/errors';
import { type BusinessScope, ConversationModel, mirrorConversationState, scopedFilter } from '@cmsg/dal';
import type { ActionActor } from '../action-support/action-actor';
import { decideConversationState } from '../conversation-state-change';
import type { StoredConversation } from '../resolve-conversation-reference';
import { loadPendingSchedule } from './pending-schedule';
import type { ScheduleHandling } from './scheduled-message-action';

export interface OwnerChange {
  /** False when another change made it first (the owner already was the target). */
  changed: boolean;
  conversation: StoredConversation;
}

/**
 * Sets the owner (an AI employee id, or null for the human team) as the next entry of the
 * conversation's owner log, so of concurrent changes each real one is recorded once, in one order,
 * and the conversation document's ai_employee_id follows the latest. A schedule that became
 * pending since the conversation was read (validated against the old owner) is not overwritten
 * silently: SCHEDULE_CONFLICT.
 */
export async function changeConversationOwner(
  scope: BusinessScope,
  conversation: StoredConversation,
  aiEmployeeId: string | null,
  schedule: { handling: ScheduleHandling; seenScheduleId: string | null },
  now: Date,
  actor: ActionActor | null = null,
): Promise<OwnerChange> {
  if (schedule.handling === 'none') await assertNoScheduleSince(scope, conversation, schedule.seenScheduleId);
  const decision = await decideConversationState(scope, conversation, 'owner', aiEmployeeId, { actor, now });
  if (decision.changed) await mirrorConversationState(scope, conversation._id, now);
  const current = await ConversationModel.findOne(scopedFilter(scope, { _id: conversation._id })).lean<StoredConversation>();
  if (!current) throw new CatalogError('CONVERSATION_NOT_FOUND');
  return { changed: decision.changed, conversation: { ...current, ai_employee_id: aiEmployeeId } };
}

async function assertNoScheduleSince(scope: BusinessScope, conversation: StoredConversation, seenScheduleId: string | null): Promise<void> {
  const pending = (await loadPendingSchedule(scope, conversation))?._id;
  if (pending && pending !== seenScheduleId) {
    throw new CatalogError('SCHEDULE_CONFLICT', 'A scheduled message of the conversation changed during the owner change; retry.');
  }
}
