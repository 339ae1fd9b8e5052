import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';
import { authorSchema } from '../shared/author.schema';
import { errorSchema } from '../shared/error.schema';
import { outboxEntrySchema } from '../shared/outbox-entry.schema';

/**
 * A scheduled message and its whole life in one document (docs/scheduled-messages.md):
 *
 *   pending --claimed by a firer--> firing --delivery path decided--> sending --> sent | failed
 *   pending --replaced / DELETE / customer reply / owner change--> cancelled
 *
 * Every transition is one update whose filter holds the state it leaves, with its history entry
 * (and, for creation, cancellation, firing and the outcome, its outbox entry: docs/events.md)
 * pushed in the same update.
 */
export const scheduledMessageSchema = new Schema(
  {
    ...tenantDocumentFields,
    conversation_id: { type: String, required: true },
    status: { type: String, required: true },
    // `<business>:<conversation>` while pending, absent otherwise: its unique sparse index keeps one
    // pending schedule per conversation (see pendingConversationKey).
    pending_conversation_key: { type: String },
    // The _id while pending, absent otherwise: its unique sparse index holds the pending schedules
    // only (the stand-in for a partial index), which the firer claims by id.
    pending_id: { type: String },
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
    // Virtual time for tester conversations.
    schedule_at: { type: Date, required: true },
    // The request's local date and time and the business time zone it was read in.
    schedule_local: { type: new Schema({ date: String, time: String, time_zone: String }, { _id: false }), default: null },
    cancel_on_customer_reply: { type: Boolean, required: true, default: false },
    is_tester: { type: Boolean, required: true, default: false },
    created_by_token_id: { type: String, default: null },
    author: { type: authorSchema, required: true },
    error: { type: errorSchema, default: null },
    // The last SCHEDULE_HISTORY_LIMIT transitions (@cmsg/conversation-commands scheduleHistoryEntry).
    history: { type: [Schema.Types.Mixed], default: [] },
    fired_at: { type: Date, default: null },
    // The firer's claim: which claim took it, and until when the claimer may still be producing its
    // command (absent once the command is produced; expired: another replica takes it over).
    fire_claim: { type: String, default: null },
    fire_lease_until: { type: Date },
    produced_at: { type: Date },
    // The delivery path decided once by the executor, and the AI branch's context note.
    delivery: { type: String, default: null },
    note_id: { type: String, default: null },
    // Entries of scheduled_message.created / .cancelled / .fired / .sent / .failed not yet recorded.
    outbox: { type: [outboxEntrySchema], default: undefined },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  documentOptions,
);
// One schedule of a business: GET and DELETE, the executor's read, and a transition of one schedule
// from the state it leaves ({business_id, _id, status}: cancel and reassign from pending, the
// executor's from firing and sending), which this index or _id serves.
scheduledMessageSchema.index({ business_id: 1, _id: 1 }, { unique: true });
// One pending schedule per conversation, and the conversation's pending schedule (create, owner
// changes, customer replies, the conversation context).
scheduledMessageSchema.index({ pending_conversation_key: 1 }, { unique: true, sparse: true });
// The firer's claim of a chunk of due schedules still pending ({pending_id: {$in}}).
scheduledMessageSchema.index({ pending_id: 1 }, { unique: true, sparse: true });
// Due schedules in every business: pending real-time ones by firing time, pending tester ones.
scheduledMessageSchema.index({ status: 1, is_tester: 1, schedule_at: 1 });
// Claimed firings whose claimer died before producing (lease expired), in firing-time order like the
// other two alternatives of the due-schedule query's $or.
scheduledMessageSchema.index({ status: 1, schedule_at: 1, fire_lease_until: 1 });
// A conversation's schedules, every state: a contact's erasure deletes them.
scheduledMessageSchema.index({ business_id: 1, conversation_id: 1 });
// Outbox relay: schedules with entries older than its delay, across businesses.
scheduledMessageSchema.index({ 'outbox.created_at': 1 });

export const ScheduledMessageModel = model('ScheduledMessage', scheduledMessageSchema, 'scheduled_messages');
