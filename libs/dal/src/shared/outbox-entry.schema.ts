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
