import type { BusinessScope, NewTimelineEvent, TimelineEventEntity } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import { type OutboxRecorder, authorOf, noteTimelineItem, outboxEntry, withSequence } from '@cmsg/events';
import type { AddNoteResponse } from '@cmsg/proto';
import { operationNoteId } from '../conversation/operation-ids';
import { type ConversationLookup, type ConversationReference, resolveConversation } from '../conversation/conversation-resolver';

export interface ApiTokenAuthor {
  tokenUuid: string;
}

/** The timeline entries a note is one of (TimelineEventRepository in the app). */
export interface NoteStore {
  /** False when an entry with that id exists: a note with its note.created entry in one insert. */
  insertIfAbsent(scope: BusinessScope, note: NewTimelineEvent): Promise<boolean>;
  findById(scope: BusinessScope, id: string): Promise<Pick<TimelineEventEntity, 'conversation_id' | 'created_at'> | null>;
}

/** What adding a note needs: where it is stored, the outbox that records its event, its time and its id. */
export interface NotePorts {
  notes: NoteStore;
  outbox: OutboxRecorder;
  clock: () => Date;
  ids: { random(): string };
}

/** AddNote finds the conversation first. */
export interface AddNotePorts extends NotePorts {
  lookup: ConversationLookup;
  /** Takes the conversation's next event sequence; null when the business has no such conversation (ConversationRepository). */
  sequences: { nextEventSequence(scope: BusinessScope, id: string): Promise<number | null> };
}

/**
 * SPEC 2.6 / 4.2: internal timeline only, never sent to the contact, author type api_token. With an
 * operation id (an action group's context_note), a repeat of the operation answers the note its
 * first run added instead of adding another.
 */
export async function addNote(ports: AddNotePorts, scope: BusinessScope, author: ApiTokenAuthor, reference: ConversationReference, note: string, operationId = ''): Promise<AddNoteResponse> {
  const id = operationId ? operationNoteId(scope.businessId, operationId) : ports.ids.random();
  if (reference.uuid !== undefined && reference.channel === undefined) {
    // By uuid alone, one update both finds the conversation and takes the note's event sequence
    // (which recording would take otherwise); a repeat of the operation leaves that number unused.
    const sequence = await ports.sequences.nextEventSequence(scope, reference.uuid);
    if (sequence === null) throw new CatalogError('CONVERSATION_NOT_FOUND');
    return appendNote(ports, scope, author, reference.uuid, note, id, sequence);
  }
  const conversation = await resolveConversation(ports.lookup, scope, reference);
  return appendNote(ports, scope, author, conversation._id, note, id);
}

/**
 * The note's text is stored exactly as sent, with its note.created entry in the same insert; its
 * event takes `sequence` when one was taken for it, the conversation's next one otherwise.
 */
export async function appendNote(
  ports: NotePorts,
  scope: BusinessScope,
  author: ApiTokenAuthor,
  conversationId: string,
  note: string,
  id: string = ports.ids.random(),
  sequence?: number,
): Promise<AddNoteResponse> {
  const createdAt = ports.clock();
  const noteAuthor = authorOf({ type: 'api_token', uuid: author.tokenUuid || null });
  const event = outboxEntry('note.created', conversationId, noteTimelineItem({ id, body: note, createdAt }, noteAuthor), noteAuthor, createdAt);
  const inserted = await ports.notes.insertIfAbsent(scope, { id, conversationId, kind: 'note', body: note, author: noteAuthor, createdAt, outbox: [event] });
  if (!inserted) {
    // An earlier or concurrent run of the same operation added it first.
    const added = await ports.notes.findById(scope, id);
    if (added) return noteResponse(added.conversation_id, id, added.created_at);
  }
  await ports.outbox.recordQuietly('timeline_events', scope, id, [sequence === undefined ? event : withSequence(event, { event_sequence: sequence })]);
  return noteResponse(conversationId, id, createdAt);
}

function noteResponse(conversationId: string, id: string, createdAt: Date): AddNoteResponse {
  return { conversation: { uuid: conversationId }, note: { uuid: id, created_at: createdAt.toISOString() } };
}
