import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';

export const mailboxSchema = new Schema(
  { ...tenantDocumentFields, category_id: { type: String, required: true }, name: { type: String, required: true }, name_key: { type: String, required: true } },
  documentOptions,
);
// Mailbox reference by uuid; the mailboxes of a page of conversations ($in); seed upserts.
mailboxSchema.index({ business_id: 1, _id: 1 }, { unique: true });
// Mailbox reference by name.
mailboxSchema.index({ business_id: 1, name_key: 1, _id: 1 });
// The first mailbox of a category by name (assign_mailbox by category).
mailboxSchema.index({ business_id: 1, category_id: 1, name_key: 1, name: 1, _id: 1 });

export const MailboxModel = model('Mailbox', mailboxSchema, 'mailboxes');
