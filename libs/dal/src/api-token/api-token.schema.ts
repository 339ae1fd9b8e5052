import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';

export const apiTokenSchema = new Schema(
  {
    ...tenantDocumentFields,
    token_sha256: { type: String, required: true },
    revoked: { type: Boolean, required: true, default: false },
    created_at: { type: Date, required: true },
    revoked_at: { type: Date, default: null },
    // The scopes granted (CONTRACT 9.3). Absent on tokens stored before scopes existed, which hold
    // every scope: no default, so a document without the field keeps meaning "all".
    scopes: { type: [String], default: undefined },
  },
  documentOptions,
);
// Token authentication on every request: the hash lookup (also revocation by token).
apiTokenSchema.index({ token_sha256: 1 }, { unique: true });
// Tokens of a business in creation order (admin tool), and lookups by id within the business.
apiTokenSchema.index({ business_id: 1, created_at: 1, _id: 1 });
apiTokenSchema.index({ business_id: 1, _id: 1 }, { unique: true });

export const ApiTokenModel = model('ApiToken', apiTokenSchema, 'api_tokens');
