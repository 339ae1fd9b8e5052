import { CatalogError } from '@cmsg/errors';
import type { BusinessScope, InboxStatusChange as StoredInboxStatusChange } from '@cmsg/dal';
import { type OutboxRecorder, authorOf, inboxStatusChangeData, outboxEntry, withConversationChange } from '@cmsg/events';
import type { InboxStatusResponse } from '@cmsg/proto';
import { MAX_CHANGE_ROUNDS } from '../conversation/conversation-change';
import { type ConversationLookup, type ConversationReference, reloadConversation, resolveConversation, type StoredConversation } from '../conversation/conversation-resolver';

export type InboxStatus = 'pending' | 'resolved';

export interface InboxStatusChange {
  target: InboxStatus;
  /** Why a conversation goes to pending: marked_pending, human_handoff, action_set_failed. */
  pendingReason?: string;
  actor: { type: 'api_token' | 'system'; uuid: string | null };
}

/** The status update of a conversation (ConversationRepository): null when the status it replaces is no longer there. */
export interface InboxStatusWriter {
  changeInboxStatus(scope: BusinessScope, id: string, change: StoredInboxStatusChange): Promise<StoredConversation | null>;
}

export interface InboxStatusPorts {
  lookup: ConversationLookup;
  inboxStatus: InboxStatusWriter;
  outbox: OutboxRecorder;
  clock: () => Date;
}

export async function setInboxStatusByReference(
  ports: InboxStatusPorts,
  scope: BusinessScope,
  reference: ConversationReference,
  change: InboxStatusChange,
): Promise<InboxStatusResponse> {
  const conversation = await resolveConversation(ports.lookup, scope, reference);
  return setInboxStatus(ports, scope, conversation, change);
}

/**
 * SPEC 3.1. A conversation already in the target status is a 200 with no change and no event; of
 * concurrent callers exactly one makes each real change, with one event and its timeline row
 * (see changeInboxStatus).
 */
export async function setInboxStatus(
  ports: InboxStatusPorts,
  scope: BusinessScope,
  conversation: StoredConversation,
  change: InboxStatusChange,
): Promise<InboxStatusResponse> {
  await changeInboxStatus(ports, scope, conversation, change);
  return { conversation: { uuid: conversation._id }, inbox_status: change.target };
}

/**
 * setInboxStatus that also says whether this call made the change (false: it already was so). The
 * change is one update of the conversation whose filter holds the status it replaces (and, to
 * resolve, the transcription guard), with its conversation.inbox_status_changed entry in the same
 * update (the event and the timeline row are recorded from it); a concurrent change makes it miss,
 * and it is decided again on the conversation as it is then.
 */
export async function changeInboxStatus(ports: InboxStatusPorts, scope: BusinessScope, conversation: StoredConversation, change: InboxStatusChange): Promise<boolean> {
  const now = ports.clock();
  const pendingReason = change.target === 'pending' ? change.pendingReason ?? 'marked_pending' : null;
  let current = conversation;
  for (let round = 0; round < MAX_CHANGE_ROUNDS; round += 1) {
    if (change.target === 'resolved') assertResolvable(current);
    if (current.inbox_status === change.target) return false;
    const data = inboxStatusChangeData(current.inbox_status, change.target, pendingReason);
    const event = outboxEntry('conversation.inbox_status_changed', current._id, data, authorOf(change.actor), now);
    const changed = await ports.inboxStatus.changeInboxStatus(scope, current._id, {
      from: current.inbox_status,
      to: change.target,
      pendingReason,
      onlyIfResolvable: change.target === 'resolved',
      event,
      now,
    });
    if (changed) {
      await ports.outbox.recordQuietly('conversations', scope, changed._id, [withConversationChange(event, changed)]);
      return true;
    }
    current = await reloadConversation(ports.lookup.conversations, scope, current._id);
  }
  throw new CatalogError('UPDATE_FAILED', 'The conversation kept changing during the inbox status change; retry.');
}

/** Human-attended conversations are exempt from the transcription guard (SPEC 7). */
function assertResolvable(conversation: StoredConversation): void {
  if (conversation.ai_employee_id && conversation.media_awaiting_transcription > 0) {
    throw new CatalogError('TRANSCRIPTION_REQUIRED_TO_RESOLVE');
  }
}
