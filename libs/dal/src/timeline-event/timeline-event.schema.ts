import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';
import { authorSchema } from '../shared/author.schema';

export const timelineEventSchema = new Schema(
  {
    ...tenantDocumentFields,
    conversation_id: { type: String, required: true },
    // note | inbox_status_changed
    kind: { type: String, required: true },
    body: { type: String, default: null },
    data: { type: Schema.Types.Mixed, default: null },
    author: {
      type: authorSchema,
      required: true,
    },
    created_at: { type: Date, required: true },
  },
  documentOptions,
);
// A timeline entry by id (a note's id is answered to the client).
timelineEventSchema.index({ business_id: 1, _id: 1 }, { unique: true });
// A conversation's entries of some kinds in timeline order, either direction (the AI's context
// reads its notes; GET /conversation/timeline its notes and events, `kind: {$in}`).
timelineEventSchema.index({ business_id: 1, conversation_id: 1, kind: 1, created_at: -1, _id: -1 });

export const TimelineEventModel = model('TimelineEvent', timelineEventSchema, 'timeline_events');
