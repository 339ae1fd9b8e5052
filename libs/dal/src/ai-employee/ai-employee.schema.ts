import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';

export const aiEmployeeSchema = new Schema(
  {
    ...tenantDocumentFields,
    name: { type: String, required: true },
    name_key: { type: String, required: true },
    model: { type: String, required: true },
    instructions: { type: String, default: '' },
    // Tokens funded (seed, top-ups); the balance is this minus the wallet ledger's charges.
    wallet_funded_tokens: { type: Number, required: true, default: 0 },
    // An explicit block; an empty wallet is blocked without it.
    wallet_blocked: { type: Boolean, required: true, default: false },
  },
  documentOptions,
);
// AI employee reference by name.
aiEmployeeSchema.index({ business_id: 1, name_key: 1 });

export const AiEmployeeModel = model('AiEmployee', aiEmployeeSchema, 'ai_employees');
