import { ALL_EVENT_TYPES, isEventType } from '@cmsg/api-schemas';
import { type BusinessScope, type WebhookEndpointEntity, type WebhookEndpointRepository } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import { type WebhookUrlPolicy, WebhookUrlRefusedError, checkWebhookUrl } from '../url-policy/webhook-url-policy';

export const MAX_WEBHOOK_DESCRIPTION_LENGTH = 500;

/** Known types without repeats, or `['*']` alone; anything else is INVALID_REQUEST. */
export function normalizeEventTypes(events: readonly string[]): string[] {
  const unique = [...new Set(events)];
  if (unique.length === 0) throw new CatalogError('INVALID_REQUEST', 'events: at least one event type, or ["*"], is required.');
  if (unique.includes(ALL_EVENT_TYPES)) {
    if (unique.length > 1) throw new CatalogError('INVALID_REQUEST', 'events: "*" subscribes to every type and stands alone.');
    return [ALL_EVENT_TYPES];
  }
  const unknown = unique.filter((type) => !isEventType(type));
  if (unknown.length > 0) throw new CatalogError('INVALID_REQUEST', `events: unknown event type ${unknown.map((type) => JSON.stringify(type)).join(', ')}.`);
  return unique;
}

/** CONTRACT 9.2's URL rules as a 400 naming the reason. */
export async function acceptableWebhookUrl(url: string, policy: WebhookUrlPolicy): Promise<string> {
  try {
    await checkWebhookUrl(url, policy);
    return url;
  } catch (error) {
    if (error instanceof WebhookUrlRefusedError) throw new CatalogError('INVALID_REQUEST', `url: ${error.message}.`);
    throw error;
  }
}

export function normalizeDescription(description: string | null | undefined): string | null {
  if (description === null || description === undefined) return null;
  if (description.length > MAX_WEBHOOK_DESCRIPTION_LENGTH) throw new CatalogError('INVALID_REQUEST', `description: at most ${MAX_WEBHOOK_DESCRIPTION_LENGTH} characters.`);
  return description;
}

/** The endpoint of this business, or WEBHOOK_ENDPOINT_NOT_FOUND (another business's looks the same as none). */
export async function existingEndpoint(endpoints: Pick<WebhookEndpointRepository, 'findById'>, scope: BusinessScope, uuid: string): Promise<WebhookEndpointEntity> {
  const endpoint = await endpoints.findById(scope, uuid);
  if (!endpoint) throw endpointNotFound();
  return endpoint;
}

export function endpointNotFound(): CatalogError {
  return new CatalogError('WEBHOOK_ENDPOINT_NOT_FOUND', 'No webhook endpoint with this uuid in this business.');
}
