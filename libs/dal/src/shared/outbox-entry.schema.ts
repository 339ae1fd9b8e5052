import { Schema } from 'mongoose';
import { namedAuthorSchema } from './author.schema';

/** Who made a change an outbox entry records: `{ type, uuid, name }` (name null where none is known). */
export interface OutboxAuthor {
  type: string;
  uuid: string | null;
  name: string | null;
}

/**
 * A change waiting to be recorded as an event (docs/events.md): pushed into the `outbox` array of
 * the document the change wrote, in the same write, and pulled by id once recorded. `type` is a
 * public event type or a timeline-only one; `data` is what the event and the timeline row carry.
 */
export interface OutboxEntry {
  id: string;
  type: string;
  conversation_id: string | null;
  data: Record<string, unknown>;
  author: OutboxAuthor;
  created_at: Date;
}

/** The `outbox` array of a collection whose writes record events. */
export const outboxEntrySchema = new Schema(
  {
    id: { type: String, required: true },
    type: { type: String, required: true },
    conversation_id: { type: String, default: null },
    data: { type: Schema.Types.Mixed, required: true },
    author: { type: namedAuthorSchema, required: true },
    created_at: { type: Date, required: true },
  },
  { _id: false },
);

/**
 * An entry as the schema stores it, for the writes that push it through the driver: its six fields
 * and its author's three, whatever else the object carries (a SequencedEntry's sequence).
 */
export function storedOutboxEntry(entry: OutboxEntry): OutboxEntry {
  const { id, type, conversation_id, data, author, created_at } = entry;
  return { id, type, conversation_id: conversation_id ?? null, data, author: { type: author.type, uuid: author.uuid ?? null, name: author.name ?? null }, created_at };
}
