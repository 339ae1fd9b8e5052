import { Schema, model } from 'mongoose';
import { documentOptions } from '../shared/document-fields';

/*
 * Who owns a conversation and its inbox status, each as an append-only log per conversation (the
 * pattern of conversation_schedule_slots): entry `<conversation>:<field>:<seq>` is written only by
 * the one writer that read entry seq - 1, so every change is decided knowing the value it replaces
 * and a change to the value already there is never written twice (one timeline event, one
 * broadcast per real change). conversation.ai_employee_id / inbox_status / pending_reason mirror
 * the latest entry; before a conversation's first change the mirror is the value (seq 0).
 */
export const conversationStateLogSchema = new Schema(
  {
    _id: { type: String, required: true },
    business_id: { type: String, required: true },
    conversation_id: { type: String, required: true },
    field: { type: String, enum: ['owner', 'inbox_status'], required: true },
    seq: { type: Number, required: true },
    // owner: the AI employee id or null (human team); inbox_status: pending | resolved.
    value: { type: String, default: null },
    previous: { type: String, default: null },
    // inbox_status: the pending reason and the announcing event id.
    data: { type: Schema.Types.Mixed, default: null },
    actor: { type: Schema.Types.Mixed, default: null },
    created_at: { type: Date, required: true },
  },
  documentOptions,
);
// Latest entry of a conversation's field.
conversationStateLogSchema.index({ conversation_id: 1, field: 1, seq: -1 });

export const ConversationStateLogModel = model('ConversationStateLog', conversationStateLogSchema, 'conversation_state_log');
