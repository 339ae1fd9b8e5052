import type { UpdateWebhookEndpointRequest, WebhookDeliveryBody, WebhookEndpointBody } from '@cmsg/api-schemas';
import type { UpdateWebhookEndpointRequest as ProtoUpdateRequest, WebhookDelivery, WebhookEndpoint } from '@cmsg/proto';
import { orNull, publicEnumValue, requiredField } from './upstream-fields';

export function toWebhookEndpoint(endpoint: WebhookEndpoint | undefined): WebhookEndpointBody {
  const present = requiredField(endpoint, 'endpoint');
  return { uuid: present.uuid, url: present.url, events: present.events, description: orNull(present.description), enabled: present.enabled, created_at: present.created_at };
}

export function toWebhookDelivery(delivery: WebhookDelivery | undefined): WebhookDeliveryBody {
  const present = requiredField(delivery, 'delivery');
  return {
    event_id: present.event_id,
    type: present.type,
    status: publicEnumValue(['pending', 'succeeded', 'failed'], present.status, 'status'),
    attempts: present.attempts,
    last_attempt_at: orNull(present.last_attempt_at),
    last_status_code: orNull(present.last_status_code),
    next_attempt_at: orNull(present.next_attempt_at),
  };
}

/** PATCH body -> the request's "set only what was sent" fields. */
export function toUpdateWebhookEndpointFields(body: UpdateWebhookEndpointRequest): Omit<ProtoUpdateRequest, 'caller' | 'uuid'> {
  return {
    url: body.url,
    events: body.events ? { types: body.events } : undefined,
    description: body.description !== undefined ? { value: body.description ?? undefined } : undefined,
    enabled: body.enabled,
  };
}
