import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';
import { authorSchema } from '../shared/author.schema';
import { errorSchema } from '../shared/error.schema';

export const scheduledMessageSchema = new Schema(
  {
    ...tenantDocumentFields,
    conversation_id: { type: String, required: true },
    // pending | cancelled | sent | failed
    status: { type: String, required: true },
    executor_kind: { type: String, required: true },
    ai_employee_id: { type: String, default: null },
    reason: { type: String, default: null },
    // Fallback (AI branch) or required window-closed template (human branch).
    template_id: { type: String, default: null },
    message_kind: { type: String, default: null },
    payload: { type: Schema.Types.Mixed, default: null },
    template_variables: { type: [Schema.Types.Mixed], default: [] },
    template_header: { type: Schema.Types.Mixed, default: null },
    template_button_parameters: { type: [Schema.Types.Mixed], default: [] },
    schedule_at: { type: Date, required: true },
    // scheduleDueMinute(schedule_at) (@cmsg/conversation-commands): the firer's equality lookup key.
    due_minute: { type: String, default: null },
    cancel_on_customer_reply: { type: Boolean, required: true, default: false },
    is_tester: { type: Boolean, required: true, default: false },
    created_by_token_id: { type: String, default: null },
    author: {
      type: authorSchema,
      required: true,
    },
    error: { type: errorSchema, default: null },
    history: { type: [Schema.Types.Mixed], default: [] },
    fire_lease_until: { type: Date, default: null },
    fired_at: { type: Date, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    // The request's local date and time and the business time zone it was read in.
    schedule_local: { type: new Schema({ date: String, time: String, time_zone: String }, { _id: false }), default: null },
    // Firing (@cmsg/conversation-commands lifecycle): the replica holding the lease, how often the
    // command was produced, the delivery path chosen once at execution, the context note written.
    fire_owner: { type: String, default: null },
    fire_attempts: { type: Number, required: true, default: 0 },
    delivery: { type: String, default: null },
    note_id: { type: String, default: null },
  },
  documentOptions,
);
// Due schedules: pending ones by firing time, and by minute bucket.
scheduledMessageSchema.index({ status: 1, schedule_at: 1 });
scheduledMessageSchema.index({ due_minute: 1, status: 1 });
// Schedules of a conversation.
scheduledMessageSchema.index({ business_id: 1, conversation_id: 1 });

export const ScheduledMessageModel = model('ScheduledMessage', scheduledMessageSchema, 'scheduled_messages');
