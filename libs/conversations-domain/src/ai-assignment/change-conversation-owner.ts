import { CatalogError } from '@cmsg/errors';
import type { BusinessScope } from '@cmsg/dal';
import { assignmentParty, authorOf, outboxEntry, withConversationChange } from '@cmsg/events';
import type { ActionActor } from '../action-support/action-actor';
import { MAX_CHANGE_ROUNDS } from '../conversation/conversation-change';
import { reloadConversation, type StoredConversation } from '../conversation/conversation-resolver';
import type { AiAssignmentPorts } from './ai-assignment-ports';
import { loadPendingSchedule } from './pending-schedule';
import type { ScheduleHandling } from './scheduled-message-action';

type OwnerChangePorts = Pick<AiAssignmentPorts, 'lookup' | 'aiEmployees' | 'owners' | 'schedules' | 'outbox'>;

export interface OwnerChange {
  /** False when another change made it first (the owner already was the target). */
  changed: boolean;
  conversation: StoredConversation;
}

/**
 * Sets the owner (an AI employee id, or null for the human team) by one update of the
 * conversation whose filter holds the owner it replaces, with its conversation.assignment_changed
 * entry: of concurrent changes
 * each real one is made once, and a change to the owner already there is no change. A schedule
 * that became pending since the conversation was read (validated against the old owner) is not
 * overwritten silently: SCHEDULE_CONFLICT.
 */
export async function changeConversationOwner(
  ports: OwnerChangePorts,
  scope: BusinessScope,
  conversation: StoredConversation,
  aiEmployeeId: string | null,
  schedule: { handling: ScheduleHandling; seenScheduleId: string | null },
  now: Date,
  actor: ActionActor,
): Promise<OwnerChange> {
  if (schedule.handling === 'none') await assertNoScheduleSince(ports, scope, conversation, schedule.seenScheduleId);
  let current = conversation;
  for (let round = 0; round < MAX_CHANGE_ROUNDS; round += 1) {
    const from = current.ai_employee_id ?? null;
    if (from === aiEmployeeId) return { changed: false, conversation: current };
    const data = { from: assignmentParty(await ownerOf(ports, scope, from)), to: assignmentParty(await ownerOf(ports, scope, aiEmployeeId)) };
    const event = outboxEntry('conversation.assignment_changed', current._id, data, authorOf(actor), now);
    const changed = await ports.owners.changeOwner(scope, current._id, { from, to: aiEmployeeId, event, now });
    if (changed) {
      await ports.outbox.recordQuietly('conversations', scope, changed._id, [withConversationChange(event, changed)]);
      return { changed: true, conversation: changed };
    }
    current = await reloadConversation(ports.lookup.conversations, scope, current._id);
  }
  throw new CatalogError('UPDATE_FAILED', 'The conversation owner kept changing during the update; retry.');
}

async function assertNoScheduleSince(ports: Pick<AiAssignmentPorts, 'schedules'>, scope: BusinessScope, conversation: StoredConversation, seenScheduleId: string | null): Promise<void> {
  const pending = (await loadPendingSchedule(ports.schedules, scope, conversation))?._id;
  if (pending && pending !== seenScheduleId) {
    throw new CatalogError('SCHEDULE_CONFLICT', 'A scheduled message of the conversation changed during the owner change; retry.');
  }
}

/** An owner as events name it: the AI employee (its name as it is now), or null for the human team. */
async function ownerOf(ports: Pick<AiAssignmentPorts, 'aiEmployees'>, scope: BusinessScope, aiEmployeeId: string | null): Promise<{ _id: string; name: string | null } | null> {
  if (!aiEmployeeId) return null;
  return { _id: aiEmployeeId, name: (await ports.aiEmployees.findById(scope, aiEmployeeId))?.name ?? null };
}
