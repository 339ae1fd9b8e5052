import { randomUUID } from 'node:crypto';
import type { BusinessScope } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import { generateWebhookSecret, liveSecrets } from '../signing/webhook-secret';
import type { WebhookEndpointDependencies } from './webhook-endpoint-dependencies';
import { existingEndpoint } from './webhook-endpoint-rules';
import type { WebhookDeliveryView } from './webhook-endpoint.view';

/** CONTRACT 9.2: the previous secret keeps signing beside the new one this long. */
export const SECRET_ROTATION_OVERLAP_MS = 24 * 3_600_000;

/** A rotation that lost to a concurrent one reads again; this many rounds bound it. */
const ROTATION_ATTEMPTS = 5;

/**
 * POST /webhook-endpoints/{uuid}/rotate-secret: a new secret first, and every secret still live
 * keeps signing until 24 h from now at the latest (a secret already expiring sooner keeps its end).
 */
export async function rotateWebhookSecret(dependencies: Pick<WebhookEndpointDependencies, 'endpoints' | 'clock'>, scope: BusinessScope, uuid: string): Promise<{ secret: string }> {
  for (let attempt = 0; attempt < ROTATION_ATTEMPTS; attempt += 1) {
    const endpoint = await existingEndpoint(dependencies.endpoints, scope, uuid);
    const now = dependencies.clock.now();
    const overlapEnd = new Date(now.getTime() + SECRET_ROTATION_OVERLAP_MS);
    const secret = generateWebhookSecret();
    const previous = liveSecrets(endpoint.secrets, now).map((entry) => ({
      secret: entry.secret,
      expires_at: entry.expires_at && entry.expires_at < overlapEnd ? entry.expires_at : overlapEnd,
    }));
    const newest = endpoint.secrets[0]?.secret ?? '';
    if (await dependencies.endpoints.replaceSecrets(scope, uuid, newest, [{ secret, expires_at: null }, ...previous], now)) return { secret };
  }
  throw new CatalogError('UPDATE_FAILED', 'The secret was rotated by concurrent requests; try again.');
}

/**
 * POST /webhook-endpoints/{uuid}/ping: a `ping` event to this endpoint only, whatever it subscribes
 * to (conversation null, sequence 0, data {}). Delivered directly: it is not recorded in `events`.
 */
export async function pingWebhookEndpoint(dependencies: Pick<WebhookEndpointDependencies, 'endpoints' | 'businesses' | 'fanOut' | 'clock'>, scope: BusinessScope, uuid: string): Promise<WebhookDeliveryView> {
  const endpoint = await existingEndpoint(dependencies.endpoints, scope, uuid);
  const business = await dependencies.businesses.findById(scope);
  if (!business) throw new CatalogError('FETCH_FAILED', 'The business of this request was not found.');
  const now = dependencies.clock.now();
  const event = { _id: randomUUID(), business_id: scope.businessId, business_slug: business.slug, conversation_id: null, sequence: 0, type: 'ping', data: {}, created_at: now };
  await dependencies.fanOut.fanOut(event, { endpointId: endpoint._id });
  return {
    event_id: event._id,
    type: 'ping',
    status: 'pending',
    attempts: 0,
    last_attempt_at: null,
    last_status_code: null,
    next_attempt_at: now.toISOString(),
  };
}
