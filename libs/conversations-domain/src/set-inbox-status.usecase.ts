import { CatalogError } from '@cmsg/errors';
import { type BusinessScope, ConversationModel, TimelineEventModel, mirrorConversationState, scopedFilter } from '@cmsg/dal';
import type { InboxStatusResponse } from '@cmsg/proto';
import { randomUUID } from 'node:crypto';
import { newConversationEvent } from './conversation-events';
import type { ConversationOutbox } from './conversation-outbox';
import { decideConversationState } from './conversation-state-change';
import { type ConversationReference, resolveConversationReference, type StoredConversation } from './resolve-conversation-reference';

export type InboxStatus = 'pending' | 'resolved';

export interface InboxStatusChange {
  target: InboxStatus;
  /** Why a conversation goes to pending: marked_pending, human_handoff, action_set_failed. */
  pendingReason?: string;
  actor: { type: 'api_token' | 'system'; uuid: string | null };
}

export const INBOX_STATUS_CHANGED = 'conversation.inbox_status_changed';

export async function setInboxStatusByReference(
  scope: BusinessScope,
  outbox: ConversationOutbox,
  reference: ConversationReference,
  change: InboxStatusChange,
): Promise<InboxStatusResponse> {
  const { conversation } = await resolveConversationReference(scope, reference);
  return setInboxStatus(scope, outbox, conversation, change);
}

/**
 * SPEC 3.1. The change is the next entry of the conversation's inbox-status log
 * (conversation-state-change.ts): a conversation already in the target status is a 200 with no
 * change and no broadcast, and of concurrent callers exactly one records each real change, with
 * one timeline event and one broadcast (outbox).
 */
export async function setInboxStatus(
  scope: BusinessScope,
  outbox: ConversationOutbox,
  conversation: StoredConversation,
  change: InboxStatusChange,
): Promise<InboxStatusResponse> {
  await changeInboxStatus(scope, outbox, conversation, change);
  return { conversation: { uuid: conversation._id }, inbox_status: change.target };
}

/** setInboxStatus that also says whether this call made the change (false: it already was so). */
export async function changeInboxStatus(scope: BusinessScope, outbox: ConversationOutbox, conversation: StoredConversation, change: InboxStatusChange): Promise<boolean> {
  if (change.target === 'resolved') assertResolvable(conversation);
  const now = new Date();
  const pendingReason = change.target === 'pending' ? change.pendingReason ?? 'marked_pending' : null;
  const decision = await decideConversationState(scope, conversation, 'inbox_status', change.target, {
    data: { pending_reason: pendingReason },
    actor: change.actor,
    now,
    // The transcription guard on the conversation as it is now, not as it was read.
    guard: change.target === 'resolved' ? () => assertResolvableNow(scope, conversation._id) : undefined,
  });
  if (!decision.changed) return false;

  await mirrorConversationState(scope, conversation._id, now);
  const event = newConversationEvent(
    INBOX_STATUS_CHANGED,
    {
      business_id: scope.businessId,
      conversation_uuid: conversation._id,
      from: decision.previous,
      to: change.target,
      pending_reason: pendingReason,
      actor: change.actor,
      occurred_at: now.toISOString(),
    },
    now,
  );
  await TimelineEventModel.create({
    _id: randomUUID(),
    business_id: scope.businessId,
    conversation_id: conversation._id,
    kind: 'inbox_status_changed',
    data: event.payload,
    author: change.actor,
    created_at: now,
  });
  await outbox.add(scope.businessId, conversation._id, event);
  await outbox.flushQuietly(conversation._id);
  return true;
}

async function assertResolvableNow(scope: BusinessScope, conversationId: string): Promise<void> {
  const current = await ConversationModel.findOne(scopedFilter(scope, { _id: conversationId })).lean<StoredConversation>();
  if (!current) throw new CatalogError('CONVERSATION_NOT_FOUND');
  assertResolvable(current);
}

/** Human-attended conversations are exempt from the transcription guard (SPEC 7). */
function assertResolvable(conversation: StoredConversation): void {
  if (conversation.ai_employee_id && conversation.media_awaiting_transcription > 0) {
    throw new CatalogError('TRANSCRIPTION_REQUIRED_TO_RESOLVE');
  }
}
