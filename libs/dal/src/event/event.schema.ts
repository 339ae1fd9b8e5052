import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';

/** How long events are kept (GET /events answers the last 30 days). */
export const EVENT_RETENTION_DAYS = 30;

export const eventSchema = new Schema(
  {
    ...tenantDocumentFields,
    business_slug: { type: String, required: true },
    conversation_id: { type: String, default: null },
    sequence: { type: Number, required: true },
    type: { type: String, required: true },
    data: { type: Schema.Types.Mixed, required: true },
    created_at: { type: Date, required: true },
  },
  documentOptions,
);
// GET /events/{id}, and the recorder's check that an entry was recorded already.
eventSchema.index({ business_id: 1, _id: 1 }, { unique: true });
// GET /events: the business's events oldest first (keyset on created_at, _id; created_since and the
// 30 days are ranges on the sort key).
eventSchema.index({ business_id: 1, created_at: 1, _id: 1 });
// GET /events?type=: one or several types.
eventSchema.index({ business_id: 1, type: 1, created_at: 1, _id: 1 });
// GET /events?conversation_uuid=.
eventSchema.index({ business_id: 1, conversation_id: 1, created_at: 1, _id: 1 });
// GET /events?conversation_uuid=&type=.
eventSchema.index({ business_id: 1, conversation_id: 1, type: 1, created_at: 1, _id: 1 });
// Retention: MongoDB removes events 30 days after they were recorded (no code relies on it).
eventSchema.index({ created_at: 1 }, { expireAfterSeconds: EVENT_RETENTION_DAYS * 24 * 60 * 60 });

export const EventModel = model('Event', eventSchema, 'events');
