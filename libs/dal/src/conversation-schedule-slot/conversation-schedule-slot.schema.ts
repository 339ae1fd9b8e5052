import { Schema, model } from 'mongoose';
import { documentOptions } from '../shared/document-fields';

export const conversationScheduleSlotSchema = new Schema(
  {
    // `<conversation uuid>:<seq>`: two writers of the same seq, one winner.
    _id: { type: String, required: true },
    business_id: { type: String, required: true },
    conversation_id: { type: String, required: true },
    seq: { type: Number, required: true },
    schedule_id: { type: String, default: null },
    previous_schedule_id: { type: String, default: null },
    created_at: { type: Date, required: true },
  },
  documentOptions,
);
// Latest slot of a conversation.
conversationScheduleSlotSchema.index({ conversation_id: 1, seq: -1 });

export const ConversationScheduleSlotModel = model('ConversationScheduleSlot', conversationScheduleSlotSchema, 'conversation_schedule_slots');
