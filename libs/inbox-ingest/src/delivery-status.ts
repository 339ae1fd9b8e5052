import { type WebhookStatus, catalogCodeOfProviderCode } from '@cmsg/chat-platform';
import type { StoredError, StoredPricing } from '@cmsg/dal';

/**
 * Delivery statuses of outbound messages (CONTRACT 7): the provider's statuses may arrive late,
 * twice or out of order, so a status only ever moves a message forward:
 * sending -> sent -> delivered -> read. `failed` ends a message that was not delivered yet.
 */
export const DELIVERY_STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

const PROGRESS = ['sending', 'sent', 'delivered', 'read'] as const;

export function isDeliveryStatus(value: string): value is DeliveryStatus {
  return (DELIVERY_STATUSES as readonly string[]).includes(value);
}

/** The stored statuses a reported status may replace (the compare-and-set filter of the update). */
export function statusesReplacedBy(status: DeliveryStatus): string[] {
  if (status === 'failed') return ['sending', 'sent'];
  return PROGRESS.slice(0, PROGRESS.indexOf(status));
}

/**
 * A `failed` status's error as the message keeps it: its first provider error mapped as a send's
 * failure is (provider-outcome.ts), so a refusal reported late reads like one reported at once.
 */
export function deliveryFailureOf(status: WebhookStatus): StoredError {
  const error = status.errors?.[0];
  if (!error) return { code: 'SEND_FAILED', message: 'The chat platform reported the message as failed.', provider_code: null };
  const details = error.error_data?.details ?? error.message ?? error.title ?? 'no details';
  return {
    code: catalogCodeOfProviderCode(error.code),
    message: `The chat platform reported the message as failed (code ${error.code}): ${details}`,
    provider_code: String(error.code),
  };
}

/** The status's pricing as the message keeps it, null when it carries none. */
export function deliveryPricingOf(status: WebhookStatus): StoredPricing | null {
  if (!status.pricing) return null;
  return { billable: status.pricing.billable ?? null, pricing_model: status.pricing.pricing_model ?? null, category: status.pricing.category ?? null };
}
