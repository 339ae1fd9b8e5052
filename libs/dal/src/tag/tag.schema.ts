import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';

export const tagSchema = new Schema(
  {
    ...tenantDocumentFields,
    name: { type: String, required: true },
    name_key: { type: String, required: true },
    color: { type: String, default: '' },
    is_default: { type: Boolean, required: true, default: false },
  },
  documentOptions,
);
// Tag reference by uuid; the tags of a conversation or a page of conversations ($in); seed upserts.
tagSchema.index({ business_id: 1, _id: 1 }, { unique: true });
// Tag reference by name.
tagSchema.index({ business_id: 1, name_key: 1, _id: 1 });

export const TagModel = model('Tag', tagSchema, 'tags');
