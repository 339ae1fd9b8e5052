import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';

const secretSchema = new Schema({ secret: { type: String, required: true }, expires_at: { type: Date, default: null } }, { _id: false });

export const webhookEndpointSchema = new Schema(
  {
    ...tenantDocumentFields,
    slot: { type: Number, required: true },
    url: { type: String, required: true },
    description: { type: String, default: null },
    events: { type: [String], default: [] },
    enabled: { type: Boolean, required: true },
    secrets: { type: [secretSchema], default: [] },
    failing_since: { type: Date, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  documentOptions,
);
// An endpoint by id in its business (GET/PATCH/DELETE, rotation, seed upserts, the dispatcher's disable).
webhookEndpointSchema.index({ business_id: 1, _id: 1 }, { unique: true });
// The limit of 20 per business: an insert takes a free slot or loses to the one that took it.
// Its prefix also serves every endpoint of a business (the fan-out of an event, the free slots).
webhookEndpointSchema.index({ business_id: 1, slot: 1 }, { unique: true });
// GET /webhook-endpoints: oldest first, keyset after (created_at, _id).
webhookEndpointSchema.index({ business_id: 1, created_at: 1, _id: 1 });

export const WebhookEndpointModel = model('WebhookEndpoint', webhookEndpointSchema, 'webhook_endpoints');
