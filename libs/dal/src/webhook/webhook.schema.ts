import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';

export const webhookSchema = new Schema(
  { ...tenantDocumentFields, url: { type: String, required: true }, secret: { type: String, required: true }, events: { type: [String], default: [] } },
  documentOptions,
);
// An endpoint by id (deliveries, seed upserts); the endpoints of a business (fan-out of an event) by the same prefix.
webhookSchema.index({ business_id: 1, _id: 1 }, { unique: true });

export const WebhookModel = model('Webhook', webhookSchema, 'webhooks');
