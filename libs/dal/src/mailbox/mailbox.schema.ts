import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';

export const mailboxSchema = new Schema(
  { ...tenantDocumentFields, category_id: { type: String, required: true }, name: { type: String, required: true }, name_key: { type: String, required: true } },
  documentOptions,
);
// Mailbox reference by name; first mailbox of a category by name.
mailboxSchema.index({ business_id: 1, name_key: 1 });
mailboxSchema.index({ business_id: 1, category_id: 1, name_key: 1 });

export const MailboxModel = model('Mailbox', mailboxSchema, 'mailboxes');
