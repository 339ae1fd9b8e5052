import { CatalogError } from '@cmsg/errors';
import { type BusinessScope, ConversationModel, TimelineEventModel, scopedFilter } from '@cmsg/dal';
import type { InboxStatusResponse } from '@cmsg/proto';
import { randomUUID } from 'node:crypto';
import { newConversationEvent } from './conversation-events';
import type { ConversationOutbox } from './conversation-outbox';
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
 * SPEC 3.1. Compare-and-set on the current status: a conversation already in the target status is
 * a 200 with no change and no broadcast; the broadcast rides in the same atomic update (outbox).
 */
export async function setInboxStatus(
  scope: BusinessScope,
  outbox: ConversationOutbox,
  conversation: StoredConversation,
  change: InboxStatusChange,
): Promise<InboxStatusResponse> {
  const response = { conversation: { uuid: conversation._id }, inbox_status: change.target };
  if (change.target === 'resolved') assertResolvable(conversation);
  if (conversation.inbox_status === change.target) return response;

  const now = new Date();
  const event = newConversationEvent(
    INBOX_STATUS_CHANGED,
    {
      business_id: scope.businessId,
      conversation_uuid: conversation._id,
      from: conversation.inbox_status,
      to: change.target,
      pending_reason: change.target === 'pending' ? change.pendingReason ?? 'marked_pending' : null,
      actor: change.actor,
      occurred_at: now.toISOString(),
    },
    now,
  );
  const guard = change.target === 'resolved' ? { $or: [{ ai_employee_id: null }, { media_awaiting_transcription: { $lte: 0 } }] } : {};
  const updated = await ConversationModel.findOneAndUpdate(
    scopedFilter(scope, { _id: conversation._id, inbox_status: { $ne: change.target }, ...guard }),
    {
      $set: { inbox_status: change.target, pending_reason: change.target === 'pending' ? change.pendingReason ?? 'marked_pending' : null, updated_at: now },
      $push: { outbox: event },
    },
    { new: true },
  ).lean<StoredConversation>();

  if (!updated) {
    // Lost a race: re-read to tell "someone else already did it" from "a guard now fails".
    const current = await ConversationModel.findOne(scopedFilter(scope, { _id: conversation._id })).lean<StoredConversation>();
    if (!current) throw new CatalogError('CONVERSATION_NOT_FOUND');
    if (current.inbox_status === change.target) return response;
    if (change.target === 'resolved') assertResolvable(current);
    throw new CatalogError('UPDATE_FAILED', 'The conversation changed while its status was being updated; retry.');
  }

  await TimelineEventModel.create({
    _id: randomUUID(),
    business_id: scope.businessId,
    conversation_id: conversation._id,
    kind: 'inbox_status_changed',
    data: event.payload,
    author: change.actor,
    created_at: now,
  });
  await outbox.flushQuietly(conversation._id);
  return response;
}

/** Human-attended conversations are exempt from the transcription guard (SPEC 7). */
function assertResolvable(conversation: StoredConversation): void {
  if (conversation.ai_employee_id && conversation.media_awaiting_transcription > 0) {
    throw new CatalogError('TRANSCRIPTION_REQUIRED_TO_RESOLVE');
  }
}
