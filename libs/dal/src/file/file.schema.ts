import { Schema, model } from 'mongoose';
import { documentOptions } from '../shared/document-fields';

const uploadSchema = new Schema(
  {
    state: { type: String, required: true, default: 'none' },
    // The attempt whose result this is: a newer PUT supersedes an older one still running.
    attempt_id: { type: String, default: null },
    content_id: { type: Schema.Types.ObjectId, default: null },
    received_bytes: { type: Number, required: true, default: 0 },
    sniffed_mime_types: { type: [String], default: [] },
    sha256: { type: String, default: null },
    started_at: { type: Date, default: null },
    finished_at: { type: Date, default: null },
  },
  { _id: false },
);

/**
 * One stored file: an upload of the public API (module api_messages: media of sends; module
 * broadcast_audiences: a broadcast's audience file) or the media of an inbound message (module
 * inbound_media). Its bytes are one GridFS file of the `file_contents` bucket.
 */
export const fileSchema = new Schema(
  {
    _id: { type: String, required: true },
    business_id: { type: String, required: true },
    module: { type: String, required: true },
    // pending | confirmed | expired (an unconfirmed upload being removed)
    status: { type: String, required: true },
    file_name: { type: String, required: true },
    mime_type: { type: String, required: true },
    category: { type: String, required: true },
    // Declared at request-upload (uploads) or received (inbound_media).
    size: { type: Number, required: true },
    // GridFS id of the confirmed content.
    content_id: { type: Schema.Types.ObjectId, default: null },
    upload: { type: uploadSchema, default: () => ({}) },
    // Pending uploads are removed after this (with their quota reservation).
    pending_expires_at: { type: Date, default: null },
    // Inbound media: the message it came with.
    message_id: { type: String, default: null },
    created_at: { type: Date, required: true },
    confirmed_at: { type: Date, default: null },
    updated_at: { type: Date, required: true },
  },
  documentOptions,
);
// A file by id: uploads, confirmations, sends, downloads, inbound media, a schedule's confirmed upload (isConfirmedIn).
fileSchema.index({ business_id: 1, _id: 1 }, { unique: true });
// A business's pending uploads by expiry: removal of the expired ones when its quota is short, and
// the soonest expiry for TOO_MANY_PENDING_UPLOADS' Retry-After.
fileSchema.index({ business_id: 1, status: 1, pending_expires_at: 1 });
// The sweeper: expired uploads of every business.
fileSchema.index({ status: 1, pending_expires_at: 1 });

export const FileModel = model('File', fileSchema, 'files');
