import { Schema, model } from 'mongoose';
import { documentOptions } from '../shared/document-fields';

export const businessSchema = new Schema(
  {
    _id: { type: String, required: true },
    slug: { type: String, required: true },
    slug_lower: { type: String, required: true },
    name: { type: String, required: true },
    time_zone: { type: String, required: true, default: 'UTC' },
    tester_clock_offset_ms: { type: Number, required: true, default: 0 },
    // Vision tokens funded (seed, top-ups); the balance is this minus the wallet ledger's charges.
    vision_wallet_funded_tokens: { type: Number, required: true, default: 0 },
    // Bytes of uploaded files (pending and confirmed) the business may keep; 0 disables uploads.
    storage_quota_bytes: { type: Number, required: true, default: 1024 * 1024 * 1024 },
    payment_profile: { type: Schema.Types.Mixed, default: null },
    created_at: { type: Date, required: true },
  },
  documentOptions,
);
// Slug resolution on every request (case-insensitive).
businessSchema.index({ slug_lower: 1 }, { unique: true });

export const BusinessModel = model('Business', businessSchema, 'businesses');
