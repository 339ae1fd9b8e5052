import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';
import { outboxEntrySchema } from '../shared/outbox-entry.schema';

const lastMessageSchema = new Schema(
  {
    uuid: { type: String, required: true },
    body: { type: String, default: '' },
    content_type: { type: String, required: true },
    is_from_customer: { type: Boolean, required: true },
    created_at: { type: Date, required: true },
  },
  { _id: false },
);

export const conversationSchema = new Schema(
  {
    ...tenantDocumentFields,
    contact_id: { type: String, required: true },
    // contactSnapshotOf(contact): list pages read it instead of joining contacts.
    contact: {
      type: new Schema(
        { name: { type: String, default: null }, profile_name: { type: String, default: null }, phone: { type: String, default: null }, chat_user_id: { type: String, default: null } },
        { _id: false },
      ),
      default: null,
    },
    channel_id: { type: String, required: true },
    ai_employee_id: { type: String, default: null },
    mailbox_id: { type: String, default: null },
    tag_ids: { type: [String], default: [] },
    inbox_status: { type: String, required: true, default: 'resolved' },
    pending_reason: { type: String, default: null },
    last_message: { type: lastMessageSchema, default: null },
    last_inbound_at: { type: Date, default: null },
    last_inbound_message_id: { type: String, default: null },
    unread_count: { type: Number, required: true, default: 0 },
    // The last inbound messages counted (unread_count): a redelivered message is not counted twice.
    recent_inbound_message_ids: { type: [String], default: [] },
    // Inbound media awaiting transcription: the count the resolve guard reads, and the messages it
    // counts (added and removed once each, so a repeated ingest never moves the count twice).
    media_awaiting_transcription: { type: Number, required: true, default: 0 },
    awaiting_media_message_ids: { type: [String], default: [] },
    is_tester: { type: Boolean, required: true, default: false },
    // Changes waiting to be recorded as events, pushed in the same write as the change and pulled
    // once recorded: a crash in between delays the event (the relay records it), never loses it.
    outbox: { type: [outboxEntrySchema], default: [] },
    // The sequence of the conversation's last recorded event (events.sequence, docs/events.md).
    event_sequence: { type: Number, required: true, default: 0 },
    // last_message_at, or created_at while there is no message: the list's sort key.
    sort_at: { type: Date, required: true },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  documentOptions,
);
// A conversation by id: every conversation request, and every change (the filter adds the value
// the change replaces to these keys).
conversationSchema.index({ business_id: 1, _id: 1 }, { unique: true });
// A contact has exactly one conversation: the conversation of a contact (reference by phone,
// username or platform id; inbound senders; the snapshot refresh).
conversationSchema.index({ business_id: 1, contact_id: 1 }, { unique: true });
// GET /conversations: keyset pagination on (sort_at, _id) in either direction, and its filters
// (docs/data-layer.md, "The conversation list"). Each index leads with one filter field, or none,
// before the sort keys and holds the other filter fields after them: a page is read in the sort
// order from the index of one of its filters and the others are checked on the index keys, so
// only matching conversations are fetched. tag_ids is an array: only the index it leads holds it.
// Unfiltered, or filtered by is_tester, window or updated_since only.
conversationSchema.index({ business_id: 1, sort_at: -1, _id: -1, inbox_status: 1, is_tester: 1, ai_employee_id: 1, mailbox_id: 1, last_inbound_at: 1, updated_at: 1 });
// inbox_status=...
conversationSchema.index({ business_id: 1, inbox_status: 1, sort_at: -1, _id: -1, is_tester: 1, ai_employee_id: 1, mailbox_id: 1, last_inbound_at: 1, updated_at: 1 });
// tag=... (every tag: MongoDB bounds the scan by one of them and checks the rest on the document).
conversationSchema.index({ business_id: 1, tag_ids: 1, sort_at: -1, _id: -1, inbox_status: 1, is_tester: 1, ai_employee_id: 1, mailbox_id: 1, last_inbound_at: 1, updated_at: 1 });
// mailbox=...
conversationSchema.index({ business_id: 1, mailbox_id: 1, sort_at: -1, _id: -1, inbox_status: 1, is_tester: 1, ai_employee_id: 1, last_inbound_at: 1, updated_at: 1 });
// ai_employee=... (an AI employee, or none).
conversationSchema.index({ business_id: 1, ai_employee_id: 1, sort_at: -1, _id: -1, inbox_status: 1, is_tester: 1, mailbox_id: 1, last_inbound_at: 1, updated_at: 1 });
// Outbox relay: conversations with entries older than its delay, across businesses.
conversationSchema.index({ 'outbox.created_at': 1 });

export const ConversationModel = model('Conversation', conversationSchema, 'conversations');
