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
// The reference's `channel` member, the seed's channels (public key, also $in), a tester contact's channel.
channelSchema.index({ business_id: 1, public_key: 1 }, { unique: true });
// Inbound webhooks resolve the channel by the provider's phone_number_id.
channelSchema.index({ phone_number_id: 1 }, { unique: true });
// A conversation's channel by id (send credentials, default scheduled template).
channelSchema.index({ business_id: 1, _id: 1 }, { unique: true });
// GET /channels and the first channel of a business, by name.
channelSchema.index({ business_id: 1, name: 1, _id: 1 });

export const ChannelModel = model('Channel', channelSchema, 'channels');
