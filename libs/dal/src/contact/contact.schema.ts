import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';

export const contactSchema = new Schema(
  {
    ...tenantDocumentFields,
    channel_id: { type: String, required: true },
    first_name: { type: String, default: null },
    middle_name: { type: String, default: null },
    last_name: { type: String, default: null },
    second_last_name: { type: String, default: null },
    profile_name: { type: String, default: null },
    phone: { type: String, default: null },
    phone_key: { type: String, default: null },
    chat_user_id: { type: String, default: null },
    chat_username: { type: String, default: null },
    username_key: { type: String, default: null },
    acquisition_source: { type: String, default: null },
    is_tester: { type: Boolean, required: true, default: false },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  documentOptions,
);
// A contact by id (conversation reference by uuid, seed upserts).
contactSchema.index({ business_id: 1, _id: 1 }, { unique: true });
// GET /contacts and GET /tester/contacts: created_at desc, uuid tiebreak, then the updated_since
// range (CONTRACT 9.1), tested on the index keys. These replace {business_id, [is_tester,]
// created_at, _id}, which a deployed database keeps until dropped by hand. With exact lookups the
// page is read among the ids one lookup index found (ContactRepository.listPage): {business_id, _id}.
contactSchema.index({ business_id: 1, created_at: -1, _id: -1, updated_at: 1 });
contactSchema.index({ business_id: 1, is_tester: 1, created_at: -1, _id: -1, updated_at: 1 });
// Conversation reference by phone / chat_user_id / username, optionally within one channel; an
// inbound sender on its channel by the same keys, oldest contact first; the contacts of a lookup
// filter of GET /contacts.
contactSchema.index({ business_id: 1, phone_key: 1, channel_id: 1, created_at: 1, _id: 1 });
contactSchema.index({ business_id: 1, chat_user_id: 1, channel_id: 1, created_at: 1, _id: 1 });
contactSchema.index({ business_id: 1, username_key: 1, channel_id: 1, created_at: 1, _id: 1 });

export const ContactModel = model('Contact', contactSchema, 'contacts');
