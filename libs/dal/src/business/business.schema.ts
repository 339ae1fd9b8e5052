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
    // The vision wallet (shared/token-wallet.ts): its balance, what was funded in all (seed,
    // top-ups), usage its balance could not cover, and the last operations charged.
    vision_wallet_tokens: { type: Number, required: true, default: 0 },
    vision_wallet_funded_tokens: { type: Number, required: true, default: 0 },
    vision_wallet_unbilled_tokens: { type: Number, required: true, default: 0 },
    vision_wallet_recent_operation_ids: { type: [String], default: [] },
    // Bytes of uploaded files (pending and confirmed) the business may keep; 0 disables uploads.
    storage_quota_bytes: { type: Number, required: true, default: 1024 * 1024 * 1024 },
    // Bytes of its confirmed uploads plus the reservations of its pending ones (conditional $inc
    // against the quota), and the uploads whose reservation is held (released once, at expiry).
    storage_used_bytes: { type: Number, required: true, default: 0 },
    storage_reserved_file_ids: { type: [String], default: [] },
    payment_profile: { type: Schema.Types.Mixed, default: null },
    // CONTRACT 10.1: the typed contact attributes (at most 100, keys unique: both held by the
    // conditional $push of ContactAttributeDefinitionRepository.define).
    contact_attribute_definitions: {
      type: [new Schema({ key: String, type: String, options: [String], created_at: Date }, { _id: false })],
      default: [],
    },
    // Keys whose definition was removed and whose values may still be on contacts (the removal's
    // second step had not finished): a new definition of such a key removes them first.
    contact_attribute_cleanups: { type: [String], default: [] },
    // CONTRACT 10.2: `{ opt_out?: [...], opt_in?: [...] }` replacing the default keyword lists; null: the defaults.
    consent_keywords: { type: Schema.Types.Mixed, default: null },
    created_at: { type: Date, required: true },
  },
  documentOptions,
);
// Slug resolution (seed, admin tool); lookups by id use the _id index.
businessSchema.index({ slug_lower: 1 }, { unique: true });

export const BusinessModel = model('Business', businessSchema, 'businesses');
