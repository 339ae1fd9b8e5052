import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';
import { outboxEntrySchema } from '../shared/outbox-entry.schema';
import { BROADCAST_PAUSE_REASONS, BROADCAST_STATES } from './broadcast.entity';

export const broadcastSchema = new Schema(
  {
    ...tenantDocumentFields,
    name: { type: String, required: true },
    channel_id: { type: String, required: true },
    template: { type: Schema.Types.Mixed, required: true },
    variables: { type: Schema.Types.Mixed, default: [] },
    header: { type: Schema.Types.Mixed, default: null },
    button_parameters: { type: Schema.Types.Mixed, default: [] },
    audience: { type: Schema.Types.Mixed, required: true },
    send_at: { type: Date, required: true },
    send_window: { type: Schema.Types.Mixed, default: null },
    time_zone: { type: String, required: true },
    max_per_second: { type: Number, default: null },
    status: { type: String, enum: BROADCAST_STATES, required: true },
    pause_reason: { type: String, enum: [...BROADCAST_PAUSE_REASONS, null], default: null },
    created_at: { type: Date, required: true },
    started_at: { type: Date, default: null },
    finished_at: { type: Date, default: null },
    error: { type: Schema.Types.Mixed, default: null },
    freeze: { type: Schema.Types.Mixed, required: true },
    freeze_failing_since: { type: Date, default: null },
    due_at: { type: Date, default: null },
    dispatch_epoch: { type: Number, default: 0 },
    progress_at: { type: Date, default: null },
    counts_at: { type: Date, default: null },
    recount_at: { type: Date, default: null },
    current_per_second: { type: Number, default: 0 },
    counts: { type: Schema.Types.Mixed, required: true },
    skipped_by_reason: { type: Schema.Types.Mixed, default: {} },
    failed_by_code: { type: Schema.Types.Mixed, default: {} },
    outbox: { type: [outboxEntrySchema], default: undefined },
  },
  documentOptions,
);
broadcastSchema.index({ business_id: 1, _id: 1 }, { unique: true });
// GET /broadcasts: newest first, optionally by status.
broadcastSchema.index({ business_id: 1, created_at: -1, _id: -1 });
broadcastSchema.index({ business_id: 1, status: 1, created_at: -1, _id: -1 });
// The coordinator: broadcasts whose next step is due, across businesses.
broadcastSchema.index({ due_at: 1 });
// The send engine's pauses: the running broadcasts of a channel.
broadcastSchema.index({ business_id: 1, channel_id: 1, status: 1 });
// Outbox relay.
broadcastSchema.index({ 'outbox.created_at': 1 });

export const BroadcastModel = model('Broadcast', broadcastSchema, 'broadcasts');
