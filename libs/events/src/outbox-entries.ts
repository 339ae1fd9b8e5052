import type { OutboxAuthor, OutboxEntry } from '@cmsg/dal';
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
