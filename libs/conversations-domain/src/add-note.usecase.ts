import type { BusinessScope } from '@cmsg/dal';
import { type OutboxRecorder, authorOf, noteTimelineItem, outboxEntry } from '@cmsg/events';
import type { AddNoteResponse } from '@cmsg/proto';
import { randomUUID } from 'node:crypto';
import { repositories } from './repositories';
import { type ConversationReference, resolveConversationReference } from './resolve-conversation-reference';

export interface ApiTokenAuthor {
  tokenUuid: string;
}

/** SPEC 2.6 / 4.2: internal timeline only, never sent to the contact, author type api_token. */
export async function addNote(scope: BusinessScope, outbox: OutboxRecorder, author: ApiTokenAuthor, reference: ConversationReference, note: string): Promise<AddNoteResponse> {
  const { conversation } = await resolveConversationReference(scope, reference);
  return appendNote(scope, outbox, author, conversation._id, note);
}

/** The note's text is stored exactly as sent, with its note.created entry in the same insert. */
export async function appendNote(scope: BusinessScope, outbox: OutboxRecorder, author: ApiTokenAuthor, conversationId: string, note: string): Promise<AddNoteResponse> {
  const id = randomUUID();
  const createdAt = new Date();
  const noteAuthor = authorOf({ type: 'api_token', uuid: author.tokenUuid || null });
  const event = outboxEntry('note.created', conversationId, noteTimelineItem({ id, body: note, createdAt }, noteAuthor), noteAuthor, createdAt);
  await repositories.timelineEvents.insertIfAbsent(scope, { id, conversationId, kind: 'note', body: note, author: noteAuthor, createdAt, outbox: [event] });
  await outbox.recordQuietly('timeline_events', scope, id, [event]);
  return { conversation: { uuid: conversationId }, note: { uuid: id, created_at: createdAt.toISOString() } };
}
