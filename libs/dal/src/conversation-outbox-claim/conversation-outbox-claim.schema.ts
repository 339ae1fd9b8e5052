import { Schema, model } from 'mongoose';
import { documentOptions } from '../shared/document-fields';

export const conversationOutboxClaimSchema = new Schema(
  {
    _id: { type: String, required: true },
    event_id: { type: String, required: true },
    created_at: { type: Date, required: true },
  },
  documentOptions,
);
// Sweep of old claims.
conversationOutboxClaimSchema.index({ created_at: 1 });

export const ConversationOutboxClaimModel = model('ConversationOutboxClaim', conversationOutboxClaimSchema, 'conversation_outbox_claims');
