import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';
import { authorSchema } from '../shared/author.schema';
import { errorSchema } from '../shared/error.schema';
import { outboxEntrySchema } from '../shared/outbox-entry.schema';

export const messageSchema = new Schema(
  {
    ...tenantDocumentFields,
    conversation_id: { type: String, required: true },
    is_from_customer: { type: Boolean, required: true },
    body: { type: String, default: '' },
    content_type: { type: String, required: true, default: 'text' },
    status: { type: String, required: true, default: 'received' },
    media_transcription_pending: { type: Boolean, required: true, default: false },
    provider_message_id: { type: String, default: null },
    is_simulated: { type: Boolean, required: true, default: false },
    created_at: { type: Date, required: true },
    // Outbound only: who sent it (api_token | ai_employee | system).
    author: {
      type: authorSchema,
      default: null,
    },
    // Outbound sends are exactly-once per operation: the _id derives from (operation_id, part), the
    // send is recorded as `sending` before the provider call and settled to sent | failed after it.
    operation_id: { type: String, default: null },
    operation_part: { type: Number, default: null },
    operation_parts: { type: Number, default: null },
    sending_started_at: { type: Date, default: null },
    // The process that made the provider call: a `sending` message whose process stopped was cut off.
    sending_process: { type: String, default: null },
    // The id of the claiming attempt's call fence (SendCallFence); null on claims made before it was recorded.
    sending_fence: { type: String, default: null },
    error: { type: errorSchema, default: null },
    // Inbound media: where its bytes are (a file of module inbound_media) and how its transcription went.
    media: {
      type: new Schema(
        {
          provider_media_id: { type: String, required: true },
          mime_type: { type: String, required: true },
          file_uuid: { type: String, default: null },
          file_name: { type: String, default: null },
          size: { type: Number, default: null },
          // pending | transcribed | untranscribable | wallet_empty | failed
          transcription_status: { type: String, required: true, default: 'pending' },
          transcription_error: { type: String, default: null },
        },
        { _id: false },
      ),
      default: null,
    },
    // Outbound media: the confirmed upload that was sent (the timeline shows it).
    outbound_file: {
      type: new Schema({ file_uuid: { type: String, required: true }, mime_type: { type: String, required: true } }, { _id: false }),
      default: null,
    },
    // What the AI reads instead of the media (image description or speech to text).
    transcription: { type: String, default: null },
    // Inbound: the message was counted on its conversation / its AI run was queued (redeliveries skip them).
    ingest: { type: new Schema({ conversation_applied: Boolean, ai_run_queued: Boolean, consent_applied: Boolean }, { _id: false }), default: null },
    // Outbound: last delivery status the provider reported (sent | delivered | read | failed) and when.
    status_at: { type: Date, default: null },
    // Outbound: the status webhook's pricing (billable, pricing_model, category), shown on the timeline.
    pricing: {
      type: new Schema({ billable: { type: Boolean, default: null }, pricing_model: { type: String, default: null }, category: { type: String, default: null } }, { _id: false }),
      default: null,
    },
    // message.sent / message.status_updated entries, pushed with the insert or status change they
    // record and pulled once recorded (docs/events.md); absent on messages that never had one.
    outbox: { type: [outboxEntrySchema], default: undefined },
  },
  documentOptions,
);
// A message by id: outbound sends and their settlement, inbound ingestion, media awaiting transcription, seed upserts.
messageSchema.index({ business_id: 1, _id: 1 }, { unique: true });
// A conversation's timeline in either direction (keyset on created_at and _id): the AI's context
// and GET /conversation/timeline; the seed reads a conversation's messages.
messageSchema.index({ business_id: 1, conversation_id: 1, created_at: -1, _id: -1 });
// What was sent to a tester conversation, newest first; a contact's eligibility (its newest outbound
// message, and its 131049 refusals of the last 24 h: error.code checked on the keys after the sort).
// Replaces the same index without error.code, which a deployed database keeps until dropped by hand.
messageSchema.index({ business_id: 1, conversation_id: 1, is_from_customer: 1, created_at: -1, _id: -1, 'error.code': 1 });
// Delivery status webhooks find the outbound message by the provider's id (then update it by id
// while its status is one the new status may follow).
messageSchema.index({ business_id: 1, provider_message_id: 1, is_from_customer: 1, status: 1 });
// Outbox relay: messages with entries older than its delay, across businesses.
messageSchema.index({ 'outbox.created_at': 1 });

export const MessageModel = model('Message', messageSchema, 'messages');
