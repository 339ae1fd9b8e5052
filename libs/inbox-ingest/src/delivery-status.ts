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
