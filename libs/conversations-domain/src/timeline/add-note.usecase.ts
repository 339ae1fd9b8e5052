import type { BusinessScope } from '@cmsg/dal';
import { type OutboxRecorder, authorOf, noteTimelineItem, outboxEntry } from '@cmsg/events';
import type { AddNoteResponse } from '@cmsg/proto';
import { randomUUID } from 'node:crypto';
import { operationNoteId } from '../conversation/operation-ids';
import { repositories } from '../repositories';
import { type ConversationReference, resolveConversation } from '../conversation/resolve-conversation-reference';

export interface ApiTokenAuthor {
  tokenUuid: string;
}

/**
 * SPEC 2.6 / 4.2: internal timeline only, never sent to the contact, author type api_token. With an
 * operation id (an action group's context_note), a repeat of the operation answers the note its
 * first run added instead of adding another.
 */
export async function addNote(scope: BusinessScope, outbox: OutboxRecorder, author: ApiTokenAuthor, reference: ConversationReference, note: string, operationId = ''): Promise<AddNoteResponse> {
  const id = operationId ? operationNoteId(scope.businessId, operationId) : randomUUID();
  const conversation = await resolveConversation(scope, reference);
  return appendNote(scope, outbox, author, conversation._id, note, id);
}

/** The note's text is stored exactly as sent, with its note.created entry in the same insert. */
export async function appendNote(scope: BusinessScope, outbox: OutboxRecorder, author: ApiTokenAuthor, conversationId: string, note: string, id: string = randomUUID()): Promise<AddNoteResponse> {
  const createdAt = new Date();
  const noteAuthor = authorOf({ type: 'api_token', uuid: author.tokenUuid || null });
  const event = outboxEntry('note.created', conversationId, noteTimelineItem({ id, body: note, createdAt }, noteAuthor), noteAuthor, createdAt);
  const inserted = await repositories.timelineEvents.insertIfAbsent(scope, { id, conversationId, kind: 'note', body: note, author: noteAuthor, createdAt, outbox: [event] });
  if (!inserted) {
    // An earlier or concurrent run of the same operation added it first.
    const added = await repositories.timelineEvents.findById(scope, id);
    if (added) return noteResponse(added.conversation_id, id, added.created_at);
  }
  await outbox.recordQuietly('timeline_events', scope, id, [event]);
  return noteResponse(conversationId, id, createdAt);
}

function noteResponse(conversationId: string, id: string, createdAt: Date): AddNoteResponse {
  return { conversation: { uuid: conversationId }, note: { uuid: id, created_at: createdAt.toISOString() } };
}
