import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';

export const channelSchema = new Schema(
  {
    ...tenantDocumentFields,
    public_key: { type: String, required: true },
    name: { type: String, required: true },
    phone: { type: String, default: '' },
    phone_number_id: { type: String, required: true },
    access_token: { type: String, default: '' },
    default_scheduled_template: { type: String, default: null },
    status: { type: String, required: true, default: 'connected' },
  },
  documentOptions,
);
// Reference `channel` member and channel listing.
channelSchema.index({ business_id: 1, public_key: 1 }, { unique: true });
// Inbound webhooks resolve the channel by the provider's phone_number_id.
channelSchema.index({ phone_number_id: 1 }, { unique: true });

export const ChannelModel = model('Channel', channelSchema, 'channels');
