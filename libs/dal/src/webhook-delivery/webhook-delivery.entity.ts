export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event for one webhook endpoint (collection webhook_deliveries). `_id` is
 * `<event id>:<endpoint id>`, so fanning the same event out again changes nothing. `body` holds the
 * exact envelope bytes that are signed and sent on every attempt.
 */
export interface WebhookDeliveryEntity {
  _id: string;
  business_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  /** When the next attempt is planned (pending only; what the API shows). */
  next_attempt_at: Date | null;
  /**
   * The claim key: a pending delivery whose due_at has passed may be claimed. It is the next
   * attempt's time while the delivery waits, and the end of the claim's lease while an attempt
   * runs, so an attempt whose dispatcher died is claimed again once its lease is over. Null once final.
   */
  due_at: Date | null;
  /**
   * Bumped by every write that changes who may write next (a claim, an outcome, a redelivery, a
   * disabled endpoint's stop): a write conditional on the version it read loses to any other.
   */
  version: number;
  /** The batch claim that last took it (read back by it after the claiming update). */
  claim_id: string | null;
  /** Retries stop after this (24 h after the delivery, or its redelivery, was queued). */
  retry_until: Date;
  created_at: Date;
}
