import { Schema, model } from 'mongoose';
import { DEFAULT_MESSAGES_PER_SECOND } from '@cmsg/api-schemas';
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
    /** The WhatsApp Business Account the number belongs to: template status webhooks name only it. */
    business_account_id: { type: String, default: null },
    max_messages_per_second: { type: Number, required: true, default: DEFAULT_MESSAGES_PER_SECOND },
    /** One of the provider's tiers (250, 2000, 10000, 100000); null is `unlimited`. */
    messaging_limit: { type: Number, default: null },
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
// A template status webhook's channels: the provider names the business account (entry id) only.
channelSchema.index({ business_account_id: 1 });

export const ChannelModel = model('Channel', channelSchema, 'channels');
