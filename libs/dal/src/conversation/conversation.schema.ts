import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';

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
    // The last inbound message applied to the counters: a redelivery of it does not count twice.
    last_inbound_message_id: { type: String, default: null },
    unread_count: { type: Number, required: true, default: 0 },
    media_awaiting_transcription: { type: Number, required: true, default: 0 },
    is_tester: { type: Boolean, required: true, default: false },
    // Events written in the same atomic update as the state change they announce, removed once
    // published: a crash between the write and the publish delays the event, never loses it.
    outbox: {
      type: [
        new Schema(
          { id: { type: String, required: true }, type: { type: String, required: true }, payload: { type: Schema.Types.Mixed, required: true }, created_at: { type: Date, required: true } },
          { _id: false },
        ),
      ],
      default: [],
    },
    // last_message_at, or created_at while there is no message: the list's sort key.
    sort_at: { type: Date, required: true },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  documentOptions,
);
// GET /conversations: keyset pagination on (sort_at, _id).
conversationSchema.index({ business_id: 1, sort_at: -1, _id: -1 });
// Outbox relay: conversations with unpublished events.
conversationSchema.index({ 'outbox.created_at': 1 });
// A contact has exactly one conversation.
conversationSchema.index({ business_id: 1, contact_id: 1 }, { unique: true });

export const ConversationModel = model('Conversation', conversationSchema, 'conversations');
