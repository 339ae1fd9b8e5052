import type { ConversationEntity, OutboxAuthor, OutboxEntry } from '@cmsg/dal';
import { randomUUID } from 'node:crypto';
import type { OutboxEntryType } from './entry-types';

/** The author of what the system does by itself (schedules firing, escalations, the relay). */
export const SYSTEM_AUTHOR: OutboxAuthor = { type: 'system', uuid: null, name: null };

/** An actor `{ type, uuid }` as an entry's author; its name where one is known. */
export function authorOf(actor: { type: string; uuid: string | null }, name: string | null = null): OutboxAuthor {
  return { type: actor.type, uuid: actor.uuid, name };
}

/**
 * An outbox entry to push in the write that makes the change. Its id becomes the event's id (and
 * the timeline row's): pass a derived one where a repeated write must yield the same event.
 */
export function outboxEntry(
  type: OutboxEntryType,
  conversationId: string | null,
  data: Record<string, unknown>,
  author: OutboxAuthor,
  now: Date,
  id: string = randomUUID(),
): OutboxEntry {
  return { id, type, conversation_id: conversationId, data, author, created_at: now };
}

/**
 * An entry whose write took its event's sequence: a change of the conversation document itself; with
 * the conversation as that write answered it, when the writer has it (the recorder copies the
 * contact's search state from it instead of reading the conversation again).
 */
export type SequencedEntry = OutboxEntry & { sequence: number; conversation?: ConversationEntity };

/**
 * The entry a change of the conversation pushed, with the sequence that change took
 * (ConversationRepository: the answered conversation's event_sequence), for recording right after.
 * The stored entry has none: the relay, recording it after a crash, takes a new one.
 */
export function withSequence(entry: OutboxEntry, changed: { event_sequence: number }): SequencedEntry {
  return { ...entry, sequence: changed.event_sequence };
}

/** withSequence for a change that answered the whole conversation (ConversationRepository's changes). */
export function withConversationChange(entry: OutboxEntry, changed: ConversationEntity): SequencedEntry {
  return { ...entry, sequence: changed.event_sequence, conversation: changed };
}
