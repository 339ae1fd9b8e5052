import { type BusinessScope, TimelineEventModel } from '@cmsg/dal';
import type { AddNoteResponse } from '@cmsg/proto';
import { randomUUID } from 'node:crypto';
import { type ConversationReference, resolveConversationReference } from './resolve-conversation-reference';

export interface ApiTokenAuthor {
  tokenUuid: string;
}

/** SPEC 2.6 / 4.2: internal timeline only, never sent to the contact, author type api_token. */
export async function addNote(scope: BusinessScope, author: ApiTokenAuthor, reference: ConversationReference, note: string): Promise<AddNoteResponse> {
  const { conversation } = await resolveConversationReference(scope, reference);
  return appendNote(scope, author, conversation._id, note);
}

export async function appendNote(scope: BusinessScope, author: ApiTokenAuthor, conversationId: string, note: string): Promise<AddNoteResponse> {
  const createdAt = new Date();
  const event = await TimelineEventModel.create({
    _id: randomUUID(),
    business_id: scope.businessId,
    conversation_id: conversationId,
    kind: 'note',
    body: note,
    author: { type: 'api_token', uuid: author.tokenUuid },
    created_at: createdAt,
  });
  return { conversation: { uuid: conversationId }, note: { uuid: event._id, created_at: createdAt.toISOString() } };
}
