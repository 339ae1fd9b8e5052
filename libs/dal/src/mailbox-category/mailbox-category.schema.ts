import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';

export const mailboxCategorySchema = new Schema({ ...tenantDocumentFields, name: { type: String, required: true }, name_key: { type: String, required: true } }, documentOptions);
// Category reference by uuid; seed upserts.
mailboxCategorySchema.index({ business_id: 1, _id: 1 }, { unique: true });
// Category reference by name.
mailboxCategorySchema.index({ business_id: 1, name_key: 1, _id: 1 });

export const MailboxCategoryModel = model('MailboxCategory', mailboxCategorySchema, 'mailbox_categories');
