import { randomUUID } from 'node:crypto';
import { type BusinessScope, WEBHOOK_ENDPOINT_LIMIT } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import { generateWebhookSecret } from '../signing/webhook-secret';
import type { WebhookEndpointDependencies } from './webhook-endpoint-dependencies';
import { acceptableWebhookUrl, endpointNotFound, existingEndpoint, normalizeDescription, normalizeEventTypes } from './webhook-endpoint-rules';
import { type WebhookEndpointView, webhookEndpointView } from './webhook-endpoint.view';

export interface CreateWebhookEndpointInput {
  url: string;
  events: readonly string[];
  description?: string | null;
}

/** POST /webhook-endpoints: enabled, with a new secret shown in this answer only; 20 per business at most. */
export async function createWebhookEndpoint(
  dependencies: Pick<WebhookEndpointDependencies, 'endpoints' | 'urlPolicy' | 'clock'>,
  scope: BusinessScope,
  input: CreateWebhookEndpointInput,
): Promise<WebhookEndpointView & { secret: string }> {
  const events = normalizeEventTypes(input.events);
  const description = normalizeDescription(input.description);
  const url = await acceptableWebhookUrl(input.url, dependencies.urlPolicy);
  const now = dependencies.clock.now();
  const secret = generateWebhookSecret();
  const created = await dependencies.endpoints.insertInFreeSlot(scope, {
    _id: randomUUID(),
    url,
    description,
    events,
    enabled: true,
    secrets: [{ secret, expires_at: null }],
    failing_since: null,
    created_at: now,
    updated_at: now,
  });
  if (created === 'limit_reached') {
    throw new CatalogError('WEBHOOK_ENDPOINT_LIMIT_REACHED', `The business already has ${WEBHOOK_ENDPOINT_LIMIT} webhook endpoints, the most it may have; delete one first.`);
  }
  return { ...webhookEndpointView(created), secret };
}

export async function getWebhookEndpoint(dependencies: Pick<WebhookEndpointDependencies, 'endpoints'>, scope: BusinessScope, uuid: string): Promise<WebhookEndpointView> {
  return webhookEndpointView(await existingEndpoint(dependencies.endpoints, scope, uuid));
}

export interface PageRequest {
  cursor: string;
  limit: number;
}

export interface Page<Item> {
  items: Item[];
  next_cursor: string;
  has_more: boolean;
}

const ENDPOINT_LIST_CURSOR = 'webhook-endpoints';

/** GET /webhook-endpoints: oldest first, cursor-paged, no secrets. */
export async function listWebhookEndpoints(dependencies: Pick<WebhookEndpointDependencies, 'endpoints' | 'cursors'>, scope: BusinessScope, page: PageRequest): Promise<Page<WebhookEndpointView>> {
  const after = page.cursor ? dependencies.cursors.decode(page.cursor, ENDPOINT_LIST_CURSOR, 'asc') : null;
  const found = await dependencies.endpoints.listPage(scope, after ? { createdAt: new Date(after.sortAt), id: after.id } : null, page.limit + 1);
  const items = found.slice(0, page.limit);
  const last = items[items.length - 1];
  const hasMore = found.length > page.limit && last !== undefined;
  return {
    items: items.map(webhookEndpointView),
    has_more: hasMore,
    next_cursor: hasMore ? dependencies.cursors.encode(ENDPOINT_LIST_CURSOR, 'asc', { sortAt: last.created_at.getTime(), id: last._id }) : '',
  };
}

export interface UpdateWebhookEndpointInput {
  url?: string;
  events?: readonly string[];
  /** null clears it. */
  description?: string | null;
  enabled?: boolean;
}

/**
 * PATCH /webhook-endpoints/{uuid}. Enabling an endpoint starts its failing streak afresh, so one
 * disabled for failing is not disabled again by its first failure after it comes back.
 */
export async function updateWebhookEndpoint(
  dependencies: Pick<WebhookEndpointDependencies, 'endpoints' | 'urlPolicy' | 'clock'>,
  scope: BusinessScope,
  uuid: string,
  input: UpdateWebhookEndpointInput,
): Promise<WebhookEndpointView> {
  const changes = {
    ...(input.events !== undefined ? { events: normalizeEventTypes(input.events) } : {}),
    ...(input.description !== undefined ? { description: normalizeDescription(input.description) } : {}),
    ...(input.url !== undefined ? { url: await acceptableWebhookUrl(input.url, dependencies.urlPolicy) } : {}),
    ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
    ...(input.enabled === true ? { failing_since: null } : {}),
    updated_at: dependencies.clock.now(),
  };
  const updated = await dependencies.endpoints.update(scope, uuid, changes);
  if (!updated) throw endpointNotFound();
  return webhookEndpointView(updated);
}

/** DELETE /webhook-endpoints/{uuid}: 200 with the endpoint as it was; its queued deliveries fail when they come due. */
export async function deleteWebhookEndpoint(dependencies: Pick<WebhookEndpointDependencies, 'endpoints'>, scope: BusinessScope, uuid: string): Promise<WebhookEndpointView> {
  const endpoint = await existingEndpoint(dependencies.endpoints, scope, uuid);
  if (!(await dependencies.endpoints.delete(scope, uuid))) throw endpointNotFound();
  return webhookEndpointView(endpoint);
}
