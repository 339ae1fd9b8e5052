import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';

export const templateSchema = new Schema(
  {
    ...tenantDocumentFields,
    channel_id: { type: String, required: true },
    name: { type: String, required: true },
    language: { type: String, required: true },
    status: { type: String, required: true },
    category: { type: String, required: true },
    body: { type: String, required: true },
    variable_count: { type: Number, required: true, default: 0 },
    header_type: { type: String, default: null },
    buttons: { type: [Schema.Types.Mixed], default: [] },
    is_fake: { type: Boolean, required: true, default: false },
  },
  documentOptions,
);
// Template reference by uuid; seed upserts.
templateSchema.index({ business_id: 1, _id: 1 }, { unique: true });
// Template reference by name and language (on every channel of the business).
templateSchema.index({ business_id: 1, name: 1, language: 1, _id: 1 });
// A channel's template by name (its default scheduled template).
templateSchema.index({ business_id: 1, channel_id: 1, name: 1, _id: 1 });

export const TemplateModel = model('Template', templateSchema, 'templates');
