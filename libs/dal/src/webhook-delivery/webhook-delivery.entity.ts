export const DELIVERY_STATUSES = ['pending', 'delivered', 'abandoned'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event for one endpoint (collection webhook_deliveries). _id is derived from the event id and
 * the endpoint, so enqueueing the same event again (a re-run group) changes nothing. `body` holds
 * the exact bytes that are signed and sent on every attempt.
 */
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
  /** A dispatcher owns the delivery until then; `lease_id` names the claim. */
  lease_until: Date;
  lease_id: string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: Date;
  delivered_at: Date | null;
}
