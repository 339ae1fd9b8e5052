import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';

export const quickReplySchema = new Schema(
  {
    ...tenantDocumentFields,
    name: { type: String, required: true },
    name_key: { type: String, required: true },
    actions: { type: [new Schema({ text: { type: String, required: true } }, { _id: false })], default: [] },
  },
  documentOptions,
);
// Quick reply reference by uuid; seed upserts.
quickReplySchema.index({ business_id: 1, _id: 1 }, { unique: true });
// Quick reply reference by name.
quickReplySchema.index({ business_id: 1, name_key: 1, _id: 1 });

export const QuickReplyModel = model('QuickReply', quickReplySchema, 'quick_replies');
