import type { BusinessScope } from '@cmsg/dal';
import type { AddNoteResponse } from '@cmsg/proto';
import { randomUUID } from 'node:crypto';
import { repositories } from './repositories';
import { type ConversationReference, resolveConversationReference } from './resolve-conversation-reference';

export interface ApiTokenAuthor {
  tokenUuid: string;
}

/** SPEC 2.6 / 4.2: internal timeline only, never sent to the contact, author type api_token. */
export async function addNote(scope: BusinessScope, author: ApiTokenAuthor, reference: ConversationReference, note: string): Promise<AddNoteResponse> {
  const { conversation } = await resolveConversationReference(scope, reference);
  return appendNote(scope, author, conversation._id, note);
}

/** The note's text is stored exactly as sent. */
export async function appendNote(scope: BusinessScope, author: ApiTokenAuthor, conversationId: string, note: string): Promise<AddNoteResponse> {
  const id = randomUUID();
  const createdAt = new Date();
  await repositories.timelineEvents.insertIfAbsent(scope, { id, conversationId, kind: 'note', body: note, author: { type: 'api_token', uuid: author.tokenUuid }, createdAt });
  return { conversation: { uuid: conversationId }, note: { uuid: id, created_at: createdAt.toISOString() } };
}
