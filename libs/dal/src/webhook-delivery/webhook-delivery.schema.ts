import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';
import { DELIVERY_STATUSES } from './webhook-delivery.entity';

/** Deliveries are kept as long as events (30 days); none is pending that long. */
export const DELIVERY_RETENTION_SECONDS = 30 * 24 * 3600;

export const webhookDeliverySchema = new Schema(
  {
    ...tenantDocumentFields,
    endpoint_id: { type: String, required: true },
    event_id: { type: String, required: true },
    event_type: { type: String, required: true },
    body: { type: String, required: true },
    status: { type: String, enum: DELIVERY_STATUSES, required: true },
    attempts: { type: Number, required: true, default: 0 },
    last_attempt_at: { type: Date, default: null },
    last_status_code: { type: Number, default: null },
    last_error: { type: String, default: null },
    next_attempt_at: { type: Date, default: null },
    due_at: { type: Date, default: null },
    version: { type: Number, required: true, default: 0 },
    claim_id: { type: String, default: null },
    retry_until: { type: Date, required: true },
    created_at: { type: Date, required: true },
  },
  documentOptions,
);
// The dispatcher's due query: pending deliveries due now, oldest due first, minus the endpoints
// already at their cap in this dispatcher (endpoint_id $nin, the range after the sort). Its
// prefix counts the pending ones (cmsg_webhook_backlog).
webhookDeliverySchema.index({ status: 1, due_at: 1, endpoint_id: 1 });
// GET /webhook-endpoints/{uuid}/deliveries, newest first, keyset before (created_at, _id).
webhookDeliverySchema.index({ business_id: 1, endpoint_id: 1, created_at: -1, _id: -1 });
// The same with ?status=; its prefix also serves stopping a disabled endpoint's pending deliveries.
webhookDeliverySchema.index({ business_id: 1, endpoint_id: 1, status: 1, created_at: -1, _id: -1 });
// Removes deliveries 30 days after they were queued (MongoDB; the local server keeps them).
webhookDeliverySchema.index({ created_at: 1 }, { expireAfterSeconds: DELIVERY_RETENTION_SECONDS });

export const WebhookDeliveryModel = model('WebhookDelivery', webhookDeliverySchema, 'webhook_deliveries');
