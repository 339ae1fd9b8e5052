import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';
import { namedAuthorSchema } from '../shared/author.schema';
import { outboxEntrySchema } from '../shared/outbox-entry.schema';

export const timelineEventSchema = new Schema(
  {
    ...tenantDocumentFields,
    conversation_id: { type: String, required: true },
    // note | event (before the events of docs/events.md: inbox_status_changed, read as an event)
    kind: { type: String, required: true },
    body: { type: String, default: null },
    // kind event: inbox_status_changed, assignment_changed, tags_changed, mailbox_changed,
    // schedule_created, schedule_cancelled, schedule_fired, action_group_escalated.
    event_type: { type: String, default: null },
    data: { type: Schema.Types.Mixed, default: null },
    author: {
      type: namedAuthorSchema,
      required: true,
    },
    created_at: { type: Date, required: true },
    // A note's note.created entry, pushed with its insert and pulled once recorded (docs/events.md).
    outbox: { type: [outboxEntrySchema], default: undefined },
  },
  documentOptions,
);
// A timeline entry by id (a note's id is answered to the client; an event row's id is its outbox entry's).
timelineEventSchema.index({ business_id: 1, _id: 1 }, { unique: true });
// A conversation's entries of some kinds in timeline order, either direction (the AI's context
// reads its notes; GET /conversation/timeline its notes and events, `kind: {$in}`).
timelineEventSchema.index({ business_id: 1, conversation_id: 1, kind: 1, created_at: -1, _id: -1 });
// Outbox relay: notes with entries older than its delay, across businesses.
timelineEventSchema.index({ 'outbox.created_at': 1 });

export const TimelineEventModel = model('TimelineEvent', timelineEventSchema, 'timeline_events');
