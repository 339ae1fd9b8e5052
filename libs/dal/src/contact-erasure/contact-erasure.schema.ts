import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';
import { outboxEntrySchema } from '../shared/outbox-entry.schema';
import { ERASURE_STATES } from './contact-erasure.entity';

export const contactErasureSchema = new Schema(
  {
    ...tenantDocumentFields,
    conversation_id: { type: String, default: null },
    state: { type: String, enum: ERASURE_STATES, required: true },
    due_at: { type: Date, default: null },
    event_sequence: { type: Number, default: null },
    requested_at: { type: Date, required: true },
    finished_at: { type: Date, default: null },
    outbox: { type: [outboxEntrySchema], default: undefined },
  },
  documentOptions,
);
// An erasure by contact id: the request (insert-if-absent), each pass, and "was this id erased"
// when a new sender would take a contact id derived from its phone.
contactErasureSchema.index({ business_id: 1, _id: 1 }, { unique: true });
// The sweeper: erasures whose next pass is due (a request whose process died, a lease that ran out,
// the settling pass), across businesses.
contactErasureSchema.index({ due_at: 1 });
// Outbox relay: erasures with entries older than its delay, across businesses.
contactErasureSchema.index({ 'outbox.created_at': 1 });

export const ContactErasureModel = model('ContactErasure', contactErasureSchema, 'contact_erasures');
