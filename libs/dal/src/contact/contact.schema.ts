import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';
import { outboxEntrySchema } from '../shared/outbox-entry.schema';

/** One consent category (CONTRACT 10.2); a contact stored before consent existed has none: unknown. */
const consentStateSchema = new Schema(
  { status: { type: String, required: true, default: 'unknown' }, source: { type: String, default: null }, updated_at: { type: Date, default: null } },
  { _id: false },
);

/** One attribute value (the attribute pattern: one index serves every key). */
const attributeValueSchema = new Schema({ k: { type: String, required: true }, v: { type: Schema.Types.Mixed, required: true } }, { _id: false });

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
    // CONTRACT 10.1. The *_key fields are what search compares (libs/contact-filter: folded names and
    // email, phone digits); external_id_key is `<business_id>:<external_id>`, unique where present, so
    // two concurrent creates of one external_id make one contact (absent, never null: the index is sparse).
    first_name_key: { type: String, default: null },
    last_name_key: { type: String, default: null },
    email: { type: String, default: null },
    email_key: { type: String, default: null },
    language: { type: String, default: null },
    external_id: { type: String, default: null },
    external_id_key: { type: String },
    attributes: { type: [attributeValueSchema], default: [] },
    consent: {
      type: new Schema({ marketing: { type: consentStateSchema, default: () => ({}) }, utility: { type: consentStateSchema, default: () => ({}) } }, { _id: false }),
      default: () => ({}),
    },
    // Mirrors of the contact's conversation for search (tag, inbox_status, last_inbound_at), kept by
    // the event recorder when it records the conversation's changes (docs/contacts.md).
    tag_ids: { type: [String], default: [] },
    inbox_status: { type: String, default: null },
    last_inbound_at: { type: Date, default: null },
    // The conversation's event_sequence of the state copied above: an older copy never replaces a newer one.
    conversation_state_sequence: { type: Number },
    // Bumped by every write of the fields above (compare-and-set: concurrent writers retry, none is lost).
    revision: { type: Number, required: true, default: 0 },
    // contact.* events waiting to be recorded (docs/events.md).
    outbox: { type: [outboxEntrySchema], default: [] },
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
// A contact by external_id (POST /contacts match, search eq/in), and the uniqueness of external_id
// per business: a single-field sparse unique index, since a compound one would index every
// contact without the field as a duplicate null.
contactSchema.index({ external_id_key: 1 }, { unique: true, sparse: true });
// Search (POST /contacts/search, libs/contact-filter), newest first like GET /contacts: each index
// leads with one searchable field, then the page's sort, so an eq/in condition on it reads only
// matching contacts in page order (docs/contacts.md lists what scans). external_id also serves
// POST /contacts matching by external_id.
contactSchema.index({ business_id: 1, external_id: 1, created_at: -1, _id: -1 });
contactSchema.index({ business_id: 1, 'attributes.k': 1, 'attributes.v': 1, created_at: -1, _id: -1 });
contactSchema.index({ business_id: 1, email_key: 1, created_at: -1, _id: -1 });
contactSchema.index({ business_id: 1, tag_ids: 1, created_at: -1, _id: -1 });
contactSchema.index({ business_id: 1, phone_key: 1, created_at: -1, _id: -1 });
// Outbox relay: contacts with entries older than its delay, across businesses.
contactSchema.index({ 'outbox.created_at': 1 });

export const ContactModel = model('Contact', contactSchema, 'contacts');
