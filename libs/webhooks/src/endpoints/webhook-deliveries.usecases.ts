import { type BusinessScope, type DeliveryStatus } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import { WEBHOOK_RETRY_WINDOW_MS } from '../fan-out/event-fan-out';
import type { Page, PageRequest } from './webhook-endpoint-crud.usecases';
import type { WebhookEndpointDependencies } from './webhook-endpoint-dependencies';
import { existingEndpoint } from './webhook-endpoint-rules';
import { type WebhookDeliveryView, webhookDeliveryView } from './webhook-endpoint.view';

/** The status filter is bound into the cursor: a cursor used with another filter is INVALID_CURSOR. */
const deliveryListCursor = (endpointId: string, status: DeliveryStatus | null) => `webhook-deliveries:${endpointId}:${status ?? 'all'}`;

/** GET /webhook-endpoints/{uuid}/deliveries: newest first, optionally of one status. */
export async function listWebhookDeliveries(
  dependencies: Pick<WebhookEndpointDependencies, 'endpoints' | 'deliveries' | 'cursors'>,
  scope: BusinessScope,
  uuid: string,
  status: DeliveryStatus | null,
  page: PageRequest,
): Promise<Page<WebhookDeliveryView>> {
  const endpoint = await existingEndpoint(dependencies.endpoints, scope, uuid);
  const cursorKey = deliveryListCursor(endpoint._id, status);
  const before = page.cursor ? dependencies.cursors.decode(page.cursor, cursorKey, 'desc') : null;
  const found = await dependencies.deliveries.listPage(scope, endpoint._id, status, before ? { createdAt: new Date(before.sortAt), id: before.id } : null, page.limit + 1);
  const items = found.slice(0, page.limit);
  const last = items[items.length - 1];
  const hasMore = found.length > page.limit && last !== undefined;
  return {
    items: items.map(webhookDeliveryView),
    has_more: hasMore,
    next_cursor: hasMore ? dependencies.cursors.encode(cursorKey, 'desc', { sortAt: last.created_at.getTime(), id: last._id }) : '',
  };
}

/**
 * POST /webhook-endpoints/{uuid}/deliveries/{event_id}/redeliver: the same body again, due now,
 * with a new run of attempts and 24 h of retries. An event the endpoint never had: EVENT_NOT_FOUND.
 */
export async function redeliverWebhookEvent(
  dependencies: Pick<WebhookEndpointDependencies, 'endpoints' | 'deliveries' | 'clock'>,
  scope: BusinessScope,
  uuid: string,
  eventId: string,
): Promise<WebhookDeliveryView> {
  const endpoint = await existingEndpoint(dependencies.endpoints, scope, uuid);
  const now = dependencies.clock.now();
  const delivery = await dependencies.deliveries.redeliver(scope, endpoint._id, eventId, now, new Date(now.getTime() + WEBHOOK_RETRY_WINDOW_MS));
  if (!delivery) throw new CatalogError('EVENT_NOT_FOUND', 'This webhook endpoint never had an event with this id.');
  return webhookDeliveryView(delivery);
}
