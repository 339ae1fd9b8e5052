import { type BusinessScope, DELIVERY_STATUSES, type DeliveryStatus, businessScope } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import type { AsyncUnaryImplementation } from '@cmsg/platform/grpc';
import type { Caller, WebhookDelivery, WebhookEndpoint, WebhookEndpointsServiceServer } from '@cmsg/proto';
import {
  type WebhookDeliveryView,
  type WebhookEndpointDependencies,
  type WebhookEndpointView,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  pingWebhookEndpoint,
  redeliverWebhookEvent,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from '@cmsg/webhooks';

/** Transport adapter: proto request -> use case -> proto response. No rules live here. */
export function webhookEndpointsHandlers(dependencies: WebhookEndpointDependencies): AsyncUnaryImplementation<WebhookEndpointsServiceServer> {
  return {
    createWebhookEndpoint: async (request) => {
      const { secret, ...endpoint } = await createWebhookEndpoint(dependencies, scopeOf(request.caller), {
        url: request.url,
        events: request.events,
        description: request.description ?? null,
      });
      return { endpoint: endpointMessage(endpoint), secret };
    },
    listWebhookEndpoints: async (request) => {
      const page = await listWebhookEndpoints(dependencies, scopeOf(request.caller), { cursor: request.cursor, limit: pageSize(request.limit) });
      return { ...page, items: page.items.map(endpointMessage) };
    },
    getWebhookEndpoint: async (request) => ({ endpoint: endpointMessage(await getWebhookEndpoint(dependencies, scopeOf(request.caller), request.uuid)) }),
    updateWebhookEndpoint: async (request) => ({
      endpoint: endpointMessage(
        await updateWebhookEndpoint(dependencies, scopeOf(request.caller), request.uuid, {
          ...(request.url !== undefined ? { url: request.url } : {}),
          ...(request.events ? { events: request.events.types } : {}),
          ...(request.description ? { description: request.description.value ?? null } : {}),
          ...(request.enabled !== undefined ? { enabled: request.enabled } : {}),
        }),
      ),
    }),
    deleteWebhookEndpoint: async (request) => ({ endpoint: endpointMessage(await deleteWebhookEndpoint(dependencies, scopeOf(request.caller), request.uuid)) }),
    rotateWebhookSecret: (request) => rotateWebhookSecret(dependencies, scopeOf(request.caller), request.uuid),
    pingWebhookEndpoint: async (request) => ({ delivery: deliveryMessage(await pingWebhookEndpoint(dependencies, scopeOf(request.caller), request.uuid)) }),
    listWebhookDeliveries: async (request) => {
      const page = await listWebhookDeliveries(dependencies, scopeOf(request.caller), request.uuid, statusOf(request.status), { cursor: request.cursor, limit: pageSize(request.limit) });
      return { ...page, items: page.items.map(deliveryMessage) };
    },
    redeliverWebhookEvent: async (request) => ({ delivery: deliveryMessage(await redeliverWebhookEvent(dependencies, scopeOf(request.caller), request.uuid, request.event_id)) }),
  };
}

function endpointMessage(view: WebhookEndpointView): WebhookEndpoint {
  return { uuid: view.uuid, url: view.url, events: view.events, description: view.description ?? undefined, enabled: view.enabled, created_at: view.created_at };
}

function deliveryMessage(view: WebhookDeliveryView): WebhookDelivery {
  return {
    event_id: view.event_id,
    type: view.type,
    status: view.status,
    attempts: view.attempts,
    last_attempt_at: view.last_attempt_at ?? undefined,
    last_status_code: view.last_status_code ?? undefined,
    next_attempt_at: view.next_attempt_at ?? undefined,
  };
}

function scopeOf(caller: Caller | undefined): BusinessScope {
  if (!caller?.business_id) throw new CatalogError('INVALID_REQUEST', 'caller.business_id is required.');
  return businessScope(caller.business_id);
}

function statusOf(status: string): DeliveryStatus | null {
  if (status === '') return null;
  if (!(DELIVERY_STATUSES as readonly string[]).includes(status)) throw new CatalogError('INVALID_REQUEST', `status: one of ${DELIVERY_STATUSES.join(', ')}.`);
  return status as DeliveryStatus;
}

/** The public lists' 1..100, default 50 (CONTRACT 9). */
function pageSize(limit: number): number {
  if (limit === 0) return 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new CatalogError('INVALID_REQUEST', 'limit: 1 to 100.');
  return limit;
}
