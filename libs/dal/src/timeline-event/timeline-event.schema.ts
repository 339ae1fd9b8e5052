import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';
import { authorSchema } from '../shared/author.schema';

export const timelineEventSchema = new Schema(
  {
    ...tenantDocumentFields,
    conversation_id: { type: String, required: true },
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
// Timeline of a conversation in order.
timelineEventSchema.index({ business_id: 1, conversation_id: 1, created_at: -1 });

export const TimelineEventModel = model('TimelineEvent', timelineEventSchema, 'timeline_events');
