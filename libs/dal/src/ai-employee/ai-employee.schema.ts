import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';

export const aiEmployeeSchema = new Schema(
  {
    ...tenantDocumentFields,
    name: { type: String, required: true },
    name_key: { type: String, required: true },
    model: { type: String, required: true },
    instructions: { type: String, default: '' },
    // The token wallet (shared/token-wallet.ts): its balance, what was funded in all (seed,
    // top-ups), usage its balance could not cover, and the last operations charged.
    wallet_tokens: { type: Number, required: true, default: 0 },
    wallet_funded_tokens: { type: Number, required: true, default: 0 },
    wallet_unbilled_tokens: { type: Number, required: true, default: 0 },
    wallet_recent_operation_ids: { type: [String], default: [] },
    // An explicit block; an empty wallet is blocked without it.
    wallet_blocked: { type: Boolean, required: true, default: false },
  },
  documentOptions,
);
// AI employee reference by uuid; the employees of a page of conversations ($in); wallet charges; seed upserts.
aiEmployeeSchema.index({ business_id: 1, _id: 1 }, { unique: true });
// AI employee reference by name.
aiEmployeeSchema.index({ business_id: 1, name_key: 1, _id: 1 });

export const AiEmployeeModel = model('AiEmployee', aiEmployeeSchema, 'ai_employees');
