import { CatalogError } from '@cmsg/errors';
import { type BusinessScope, ConversationModel, scopedFilter } from '@cmsg/dal';
import type { StoredConversation } from '../resolve-conversation-reference';
import type { ScheduleHandling } from './scheduled-message-action';

/**
 * Compare-and-set of the conversation owner on the owner and the pending schedule pointer as read,
 * so a concurrent owner change or a schedule created meanwhile (validated against the old owner)
 * is not silently overwritten. A cancelled schedule's pointer is cleared in the same update.
 */
export async function changeConversationOwner(
  scope: BusinessScope,
  conversation: StoredConversation,
  aiEmployeeId: string | null,
  handling: ScheduleHandling,
  now: Date,
): Promise<StoredConversation> {
  const readPointer = conversation.pending_schedule_id ?? null;
  const updated = await ConversationModel.findOneAndUpdate(
    scopedFilter(scope, { _id: conversation._id, ai_employee_id: conversation.ai_employee_id ?? null, pending_schedule_id: readPointer }),
    { $set: { ai_employee_id: aiEmployeeId, updated_at: now, ...(handling === 'cancel' ? { pending_schedule_id: null } : {}) } },
    { new: true },
  ).lean<StoredConversation>();
  if (updated) return updated;

  const current = await ConversationModel.findOne(scopedFilter(scope, { _id: conversation._id })).lean<StoredConversation>();
  if (!current) throw new CatalogError('CONVERSATION_NOT_FOUND');
  if ((current.pending_schedule_id ?? null) !== readPointer) {
    throw new CatalogError('SCHEDULE_CONFLICT', 'A scheduled message of the conversation changed during the owner change; retry.');
  }
  throw new CatalogError('UPDATE_FAILED', 'The conversation owner changed during the update; retry.');
}
