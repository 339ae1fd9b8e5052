import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';
import { RECIPIENT_SKIP_REASONS, RECIPIENT_STATES } from './broadcast-recipient.entity';

export const broadcastRecipientSchema = new Schema(
  {
    ...tenantDocumentFields,
    broadcast_id: { type: String, required: true },
    seq: { type: Number, required: true },
    dedupe_key: { type: String, required: true },
    contact_id: { type: String, default: null },
    conversation_id: { type: String, default: null },
    phone: { type: String, default: null },
    row: { type: Number, default: null },
    variables: { type: Schema.Types.Mixed, default: [] },
    status: { type: String, enum: RECIPIENT_STATES, required: true },
    reason: { type: String, enum: [...RECIPIENT_SKIP_REASONS, null], default: null },
    error: { type: Schema.Types.Mixed, default: null },
    attempt: { type: Number, default: 0 },
    message_id: { type: String },
    claimed_at: { type: Date, default: null },
    sent_at: { type: Date, default: null },
  },
  documentOptions,
);
broadcastRecipientSchema.index({ business_id: 1, _id: 1 }, { unique: true });
// Freeze order and send slices; a batch frozen again after a crash inserts nothing twice.
broadcastRecipientSchema.index({ business_id: 1, broadcast_id: 1, seq: 1 }, { unique: true });
// One recipient per contact.
broadcastRecipientSchema.index({ business_id: 1, broadcast_id: 1, dedupe_key: 1 }, { unique: true });
// The recipients list by status, stale claims, re-dispatch of pending ones, counts.
broadcastRecipientSchema.index({ business_id: 1, broadcast_id: 1, status: 1, seq: 1 });
// Claims older than the coordinator's threshold (their sender may have died).
broadcastRecipientSchema.index({ business_id: 1, broadcast_id: 1, status: 1, claimed_at: 1 });
// Status webhooks of a sent message (only while its recipient is at an earlier status).
broadcastRecipientSchema.index({ business_id: 1, message_id: 1, status: 1 });
// A reply in the conversation counts the recent sends to it as replied.
broadcastRecipientSchema.index({ business_id: 1, conversation_id: 1, status: 1, sent_at: -1 });

export const BroadcastRecipientModel = model('BroadcastRecipient', broadcastRecipientSchema, 'broadcast_recipients');
