import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';
import { DELIVERY_STATUSES } from './webhook-delivery.entity';

export const webhookDeliverySchema = new Schema(
  {
    ...tenantDocumentFields,
    webhook_id: { type: String, required: true },
    url: { type: String, required: true },
    event_id: { type: String, required: true },
    event_type: { type: String, required: true },
    body: { type: String, required: true },
    status: { type: String, enum: DELIVERY_STATUSES, required: true },
    attempts: { type: Number, required: true, default: 0 },
    next_attempt_at: { type: Date, required: true },
    lease_until: { type: Date, required: true },
    lease_id: { type: String, default: null },
    last_status: { type: Number, default: null },
    last_error: { type: String, default: null },
    created_at: { type: Date, required: true },
    delivered_at: { type: Date, default: null },
  },
  documentOptions,
);
// The dispatcher's claim: pending deliveries due now (next_attempt_at, oldest first), lease over.
webhookDeliverySchema.index({ status: 1, next_attempt_at: 1, lease_until: 1 });
// An attempt's outcome, written only by the claim that holds the lease (`{_id, lease_id}`). Unique
// because _id is; the local server serves a filter from an index only when its keys are exactly a
// unique index's keys.
webhookDeliverySchema.index({ _id: 1, lease_id: 1 }, { unique: true });
// Deliveries of one event (support, tests).
webhookDeliverySchema.index({ business_id: 1, event_id: 1 });

export const WebhookDeliveryModel = model('WebhookDelivery', webhookDeliverySchema, 'webhook_deliveries');
