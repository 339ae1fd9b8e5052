import { Schema, model } from 'mongoose';
import { documentOptions } from '../shared/document-fields';

/*
 * Conversation events waiting to be published (topic conversation-events), one document per event
 * (_id = event id), inserted by the one writer of the change it announces and deleted once
 * published (a deleteOne is exclusive on FerretDB; an array `$push`/`$pull` on the conversation
 * can be lost to a concurrent update of the same conversation). The relay takes a stale event by
 * inserting a claim `<event id>:<lease window>` into conversation_outbox_claims.
 */
export const conversationOutboxSchema = new Schema(
  {
    _id: { type: String, required: true },
    business_id: { type: String, required: true },
    conversation_id: { type: String, required: true },
    type: { type: String, required: true },
    payload: { type: Schema.Types.Mixed, required: true },
    created_at: { type: Date, required: true },
  },
  documentOptions,
);
// Events of a conversation (flush after a change); stale events (relay).
conversationOutboxSchema.index({ conversation_id: 1 });
conversationOutboxSchema.index({ created_at: 1 });

export const ConversationOutboxModel = model('ConversationOutbox', conversationOutboxSchema, 'conversation_outbox');
