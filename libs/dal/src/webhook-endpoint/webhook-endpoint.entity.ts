/** Most endpoints one business may have (CONTRACT 9.2): the slots 0..19 of the unique `{business_id, slot}` index. */
export const WEBHOOK_ENDPOINT_LIMIT = 20;

/** A signing secret; `expires_at` is set on the previous one when the secret is rotated (it keeps signing until then). */
export interface WebhookSecretEntity {
  secret: string;
  expires_at: Date | null;
}

/**
 * One webhook endpoint of a business (collection webhook_endpoints). `slot` (0..19) is unique per
 * business: the limit of 20 is that index, so concurrent creates can never pass it. `secrets`
 * holds the newest first. `failing_since` is the first failed attempt after the last success.
 */
export interface WebhookEndpointEntity {
  _id: string;
  business_id: string;
  slot: number;
  url: string;
  description: string | null;
  /** Event types, or `['*']` for all of them. */
  events: string[];
  enabled: boolean;
  secrets: WebhookSecretEntity[];
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}
