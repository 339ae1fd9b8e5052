import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';

export const webhookSchema = new Schema(
  { ...tenantDocumentFields, url: { type: String, required: true }, secret: { type: String, required: true }, events: { type: [String], default: [] } },
  documentOptions,
);
// Fan-out of one event type to a business's endpoints.
webhookSchema.index({ business_id: 1 });

export const WebhookModel = model('Webhook', webhookSchema, 'webhooks');
