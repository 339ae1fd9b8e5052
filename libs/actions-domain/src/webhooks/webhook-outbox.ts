import { businessScope } from '@cmsg/dal';
import type { ActionGroupEntity, WebhookDeliveryRepository, WebhookEndpoint, WebhookRepository } from '@cmsg/dal';
import { deterministicUuid, type WebhookEvent } from './webhook-events';

/**
 * Turns an event into one pending delivery per subscribed endpoint of the business. Only database
 * writes: sending is the dispatcher's job, so a slow receiver never holds up the command stream.
 */
export class WebhookOutbox {
  private readonly cache = new Map<string, { until: number; endpoints: WebhookEndpoint[] }>();

  /**
   * @param cacheMs how long a business's endpoint list is reused: every group looks it up, and an
   *   endpoint added or removed is seen within this delay.
   */
  constructor(
    private readonly endpoints: Pick<WebhookRepository, 'list'>,
    private readonly deliveries: Pick<WebhookDeliveryRepository, 'enqueue'>,
    private readonly cacheMs = 5_000,
  ) {}

  async enqueue(group: Pick<ActionGroupEntity, 'business_id'>, event: WebhookEvent, now: Date): Promise<number> {
    const endpoints = (await this.endpointsOf(group.business_id, now)).filter((endpoint) => endpoint.events.includes(event.type));
    const body = JSON.stringify(event);
    for (const endpoint of endpoints) {
      await this.deliveries.enqueue({
        _id: deterministicUuid(event.id, endpoint.id),
        business_id: group.business_id,
        webhook_id: endpoint.id,
        url: endpoint.url,
        event_id: event.id,
        event_type: event.type,
        body,
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        lease_until: new Date(0),
        lease_id: null,
        last_status: null,
        last_error: null,
        created_at: now,
        delivered_at: null,
      });
    }
    return endpoints.length;
  }

  private async endpointsOf(businessId: string, now: Date): Promise<WebhookEndpoint[]> {
    const cached = this.cache.get(businessId);
    if (cached && cached.until > now.getTime()) return cached.endpoints;
    const endpoints = await this.endpoints.list(businessScope(businessId));
    this.cache.set(businessId, { until: now.getTime() + this.cacheMs, endpoints });
    return endpoints;
  }
}
