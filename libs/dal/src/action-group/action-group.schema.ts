import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';
import { errorSchema } from '../shared/error.schema';
import { outboxEntrySchema } from '../shared/outbox-entry.schema';
import { ACTION_STATUSES, GROUP_STATUSES } from './action-group.entity';

const actionRecordSchema = new Schema(
  {
    index: { type: Number, required: true },
    type: { type: String, required: true },
    params: { type: Schema.Types.Mixed, required: true },
    status: { type: String, enum: ACTION_STATUSES, required: true },
    error: { type: errorSchema, default: null },
    started_at: { type: Date, default: null },
    finished_at: { type: Date, default: null },
  },
  { _id: false },
);

/**
 * Everything about a group lives in this one document, and every change is one atomic update of
 * it (action-group.repository.ts). `started_at` and `finished_at` have no default: they are absent
 * until set, so the first start can be kept with `$min`.
 */
export const actionGroupSchema = new Schema(
  {
    ...tenantDocumentFields,
    conversation_id: { type: String, required: true },
    token_uuid: { type: String, default: '' },
    request_id: { type: String, default: null },
    source: { type: String, required: true },
    depth: { type: Number, required: true },
    stop_on_error: { type: Boolean, required: true },
    escalate_on_error: { type: Boolean, required: true },
    status: { type: String, enum: GROUP_STATUSES, required: true },
    escalated: { type: Boolean, required: true, default: false },
    actions: { type: [actionRecordSchema], default: [] },
    created_at: { type: Date, required: true },
    started_at: { type: Date },
    finished_at: { type: Date },
    outbox: { type: [outboxEntrySchema], default: undefined },
  },
  documentOptions,
);
// Every read and write of one group: find, open, start, record, escalate, and the finish
// conditional on `status: 'processing'` (docs/data-layer.md).
actionGroupSchema.index({ business_id: 1, _id: 1 }, { unique: true });
// Groups of a conversation, newest first (operations and support queries).
actionGroupSchema.index({ business_id: 1, conversation_id: 1, created_at: -1 });
// Outbox relay: groups with entries older than its delay, across businesses.
actionGroupSchema.index({ 'outbox.created_at': 1 });

export const ActionGroupModel = model('ActionGroup', actionGroupSchema, 'action_groups');
