import { Schema, model } from 'mongoose';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'abandoned'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event for one endpoint (collection webhook_deliveries). _id is derived from the event id and
 * the endpoint, so enqueueing the same event again (a re-run group) changes nothing. `body` holds
 * the exact bytes that are signed and sent on every attempt.
 */
const webhookDeliverySchema = new Schema(
  {
    _id: { type: String, required: true },
    business_id: { type: String, required: true },
    webhook_id: { type: String, required: true },
    url: { type: String, required: true },
    event_id: { type: String, required: true },
    event_type: { type: String, required: true },
    body: { type: String, required: true },
    status: { type: String, enum: DELIVERY_STATUSES, required: true },
    attempts: { type: Number, required: true, default: 0 },
    next_attempt_at: { type: Date, required: true },
    // A dispatcher owns the delivery until then; lease_id names the owner.
    lease_until: { type: Date, required: true },
    lease_id: { type: String, default: null },
    last_status: { type: Number, default: null },
    last_error: { type: String, default: null },
    created_at: { type: Date, required: true },
    delivered_at: { type: Date, default: null },
  },
  { versionKey: false, timestamps: false },
);
// The dispatcher's lease query: pending deliveries due now, oldest first.
webhookDeliverySchema.index({ status: 1, next_attempt_at: 1 });
// Deliveries of one event (tests, support).
webhookDeliverySchema.index({ business_id: 1, event_id: 1 });

export const WebhookDeliveryModel = model('WebhookDelivery', webhookDeliverySchema, 'webhook_deliveries');

export interface WebhookDeliveryEntity {
  _id: string;
  business_id: string;
  webhook_id: string;
  url: string;
  event_id: string;
  event_type: string;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date;
  lease_until: Date;
  lease_id: string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: Date;
  delivered_at: Date | null;
}

/**
 * Who attempts a delivery: one document per (delivery, attempt, lease version), inserted by the
 * dispatcher that wants it. FerretDB 1.x runs findOneAndUpdate and conditional updates as a read
 * then a write, so two dispatchers can both "win" a compare-and-set; an insert of the same _id
 * fails for all but one, so it is the lease primitive here.
 */
const webhookDeliveryClaimSchema = new Schema(
  { _id: { type: String, required: true }, delivery_id: { type: String, required: true }, created_at: { type: Date, required: true } },
  { versionKey: false, timestamps: false },
);
// The sweeper's query: claims older than any lease could be.
webhookDeliveryClaimSchema.index({ created_at: 1 });

export const WebhookDeliveryClaimModel = model('WebhookDeliveryClaim', webhookDeliveryClaimSchema, 'webhook_delivery_claims');
