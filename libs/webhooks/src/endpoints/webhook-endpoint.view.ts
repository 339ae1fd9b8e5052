import type { WebhookDeliveryEntity, WebhookEndpointEntity } from '@cmsg/dal';

/** An endpoint as the API shows it; the secret only on creation and rotation. */
export interface WebhookEndpointView {
  uuid: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  created_at: string;
}

export interface WebhookDeliveryView {
  event_id: string;
  type: string;
  status: string;
  attempts: number;
  last_attempt_at: string | null;
  last_status_code: number | null;
  next_attempt_at: string | null;
}

export function webhookEndpointView(endpoint: WebhookEndpointEntity): WebhookEndpointView {
  return {
    uuid: endpoint._id,
    url: endpoint.url,
    events: [...endpoint.events],
    description: endpoint.description,
    enabled: endpoint.enabled,
    created_at: endpoint.created_at.toISOString(),
  };
}

export function webhookDeliveryView(delivery: WebhookDeliveryEntity): WebhookDeliveryView {
  return {
    event_id: delivery.event_id,
    type: delivery.event_type,
    status: delivery.status,
    attempts: delivery.attempts,
    last_attempt_at: delivery.last_attempt_at?.toISOString() ?? null,
    last_status_code: delivery.last_status_code,
    next_attempt_at: delivery.status === 'pending' ? (delivery.next_attempt_at?.toISOString() ?? null) : null,
  };
}
