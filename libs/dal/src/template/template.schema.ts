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
    /** The provider's template id (message_template_id of its status webhooks), when the seed names it. */
    provider_template_id: { type: String, default: null },
  },
  documentOptions,
);
// Template reference by uuid; seed upserts.
templateSchema.index({ business_id: 1, _id: 1 }, { unique: true });
// Template reference by name and language (on every channel of the business).
templateSchema.index({ business_id: 1, name: 1, language: 1, _id: 1 });
// A channel's template by name (its default scheduled template).
templateSchema.index({ business_id: 1, channel_id: 1, name: 1, _id: 1 });
// GET /templates without a channel: (name, language, _id) order, status and category checked on the keys.
templateSchema.index({ business_id: 1, name: 1, language: 1, _id: 1, status: 1, category: 1 });
// GET /templates?channel=: the same order within the channel.
templateSchema.index({ business_id: 1, channel_id: 1, name: 1, language: 1, _id: 1, status: 1, category: 1 });
// A status webhook's match within a channel of the account: by the provider's template id, else
// by name and language among the templates without one (provider_template_id null).
templateSchema.index({ business_id: 1, channel_id: 1, provider_template_id: 1, name: 1, language: 1 });

export const TemplateModel = model('Template', templateSchema, 'templates');
