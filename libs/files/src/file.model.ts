import { Schema, type Types, model } from 'mongoose';

/**
 * One stored file: an upload of the public API (module api_messages) or the media of an inbound
 * message (module inbound_media). Its bytes are one GridFS file of the `file_contents` bucket.
 * FerretDB has no TTL index: pending uploads carry pending_expires_at and a sweeper removes them.
 */
export const FILE_MODULES = ['api_messages', 'inbound_media'] as const;
export type FileModule = (typeof FILE_MODULES)[number];

/** pending: requested, content may arrive; confirmed: usable (sends, downloads). */
export type FileStatus = 'pending' | 'confirmed';

/** none: no content yet; receiving: a PUT in progress; complete: the last PUT ended; partial: it broke off. */
export type UploadState = 'none' | 'receiving' | 'complete' | 'partial';

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

const fileSchema = new Schema(
  {
    _id: { type: String, required: true },
    business_id: { type: String, required: true },
    module: { type: String, required: true },
    status: { type: String, required: true },
    file_name: { type: String, required: true },
    mime_type: { type: String, required: true },
    category: { type: String, required: true },
    /** Declared at request-upload (api_messages) or received (inbound_media). */
    size: { type: Number, required: true },
    /** GridFS id of the confirmed content. */
    content_id: { type: Schema.Types.ObjectId, default: null },
    upload: { type: uploadSchema, default: () => ({}) },
    /** Pending uploads: swept after this (unconfirmed uploads expire). */
    pending_expires_at: { type: Date, default: null },
    /** Inbound media: the message it came with. */
    message_id: { type: String, default: null },
    created_at: { type: Date, required: true },
    confirmed_at: { type: Date, default: null },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, timestamps: false },
);
// Quota (the bytes of a business's api_messages uploads) and the pending-upload cap (its pending
// uploads not yet expired: the expiry is the range after the equalities).
fileSchema.index({ business_id: 1, module: 1, status: 1, pending_expires_at: 1 });
// A business's expired pending uploads, removed when its quota is reached.
fileSchema.index({ business_id: 1, status: 1, pending_expires_at: 1 });
// Sweeper: pending uploads past their expiry.
fileSchema.index({ status: 1, pending_expires_at: 1 });

export const FileModel = model('File', fileSchema, 'files');

export interface FileEntity {
  _id: string;
  business_id: string;
  module: FileModule;
  status: FileStatus;
  file_name: string;
  mime_type: string;
  category: string;
  size: number;
  content_id: Types.ObjectId | null;
  upload: {
    state: UploadState;
    attempt_id: string | null;
    content_id: Types.ObjectId | null;
    received_bytes: number;
    sniffed_mime_types: string[];
    sha256: string | null;
    started_at: Date | null;
    finished_at: Date | null;
  };
  pending_expires_at: Date | null;
  message_id: string | null;
  created_at: Date;
  confirmed_at: Date | null;
  updated_at: Date;
}

export async function ensureFileIndexes(): Promise<void> {
  await FileModel.createIndexes();
}
