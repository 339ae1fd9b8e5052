import { businessScope, deliveryId, type WebhookDeliveryEntity, type WebhookDeliveryRepository, type WebhookEndpointEntity, type WebhookEndpointRepository, type WebhookEndpointTarget } from '@cmsg/dal';
import { ALL_EVENT_TYPES } from '@cmsg/api-schemas';
import type { Clock } from '../ports';
import type { EndpointDirectory } from './cached-endpoint-directory';
import { type FanOutEvent, eventEnvelope } from './event-envelope';

/** CONTRACT 9.2: a failing delivery is retried for 24 h after it was queued. */
export const WEBHOOK_RETRY_WINDOW_MS = 24 * 3_600_000;

export interface FanOutOptions {
  /** Only this endpoint, whatever it subscribes to (a ping). */
  endpointId?: string;
}

/** The port the event recorder calls for every recorded event (docs/webhooks.md). */
export interface EventFanOut {
  fanOut(event: FanOutEvent, options?: FanOutOptions): Promise<number>;
  fanOutMany(events: readonly FanOutEvent[]): Promise<number>;
}

export function isSubscribed(endpoint: Pick<WebhookEndpointEntity, 'events'>, type: string): boolean {
  return endpoint.events.includes(ALL_EVENT_TYPES) || endpoint.events.includes(type);
}

export interface WebhookFanOutDependencies {
  /** The enabled endpoints of a business (a CachedEndpointDirectory in the services). */
  directory: EndpointDirectory;
  /** A ping's endpoint, read as it is now. */
  endpoints: Pick<WebhookEndpointRepository, 'findById'>;
  deliveries: Pick<WebhookDeliveryRepository, 'enqueueMany'>;
  clock: Clock;
  /** Called after deliveries were queued (an in-process dispatcher wakes at once). */
  onQueued?: () => void;
}

/**
 * Queues one delivery per enabled endpoint of the business subscribed to the event's type (or to
 * `*`), holding the exact envelope bytes. Idempotent: a delivery's id is the event id and the
 * endpoint id, so fanning the same event out again (a retried recorder) adds nothing. A `ping`
 * goes only to the endpoint named in the options. Only database writes: sending is the dispatcher's job.
 */
export class WebhookFanOut implements EventFanOut {
  constructor(private readonly dependencies: WebhookFanOutDependencies) {}

  async fanOut(event: FanOutEvent, options: FanOutOptions = {}): Promise<number> {
    const targets = await this.targetsOf(event, options);
    if (targets.length === 0) return 0;
    const body = JSON.stringify(eventEnvelope(event));
    const now = this.dependencies.clock.now();
    const queued = await this.dependencies.deliveries.enqueueMany(targets.map((endpoint) => newDelivery(event, endpoint, body, now)));
    if (queued > 0) this.dependencies.onQueued?.();
    return queued;
  }

  /**
   * The same for many events at once (a relay's batch, a benchmark): one endpoint lookup per
   * business and one insert for all the deliveries. Pings are left out (they name their endpoint).
   */
  async fanOutMany(events: readonly FanOutEvent[]): Promise<number> {
    const now = this.dependencies.clock.now();
    const byBusiness = new Map<string, FanOutEvent[]>();
    for (const event of events) if (event.type !== 'ping') byBusiness.set(event.business_id, [...(byBusiness.get(event.business_id) ?? []), event]);
    const queued: WebhookDeliveryEntity[] = [];
    for (const [businessId, ofBusiness] of byBusiness) {
      const endpoints = await this.dependencies.directory.enabledTargetsOf(businessScope(businessId));
      for (const event of ofBusiness) {
        const targets = endpoints.filter((endpoint) => isSubscribed(endpoint, event.type));
        if (targets.length === 0) continue;
        const body = JSON.stringify(eventEnvelope(event));
        queued.push(...targets.map((endpoint) => newDelivery(event, endpoint, body, now)));
      }
    }
    const inserted = await this.dependencies.deliveries.enqueueMany(queued);
    if (inserted > 0) this.dependencies.onQueued?.();
    return inserted;
  }

  private async targetsOf(event: FanOutEvent, options: FanOutOptions): Promise<readonly Pick<WebhookEndpointTarget, '_id'>[]> {
    const scope = businessScope(event.business_id);
    if (options.endpointId !== undefined) {
      const endpoint = await this.dependencies.endpoints.findById(scope, options.endpointId);
      return endpoint ? [endpoint] : [];
    }
    if (event.type === 'ping') return [];
    return (await this.dependencies.directory.enabledTargetsOf(scope)).filter((endpoint) => isSubscribed(endpoint, event.type));
  }
}

export function newDelivery(event: Pick<FanOutEvent, '_id' | 'business_id' | 'type'>, endpoint: Pick<WebhookEndpointEntity, '_id'>, body: string, now: Date): WebhookDeliveryEntity {
  return {
    _id: deliveryId(event._id, endpoint._id),
    business_id: event.business_id,
    endpoint_id: endpoint._id,
    event_id: event._id,
    event_type: event.type,
    body,
    status: 'pending',
    attempts: 0,
    last_attempt_at: null,
    last_status_code: null,
    last_error: null,
    next_attempt_at: now,
    due_at: now,
    version: 0,
    claim_id: null,
    retry_until: new Date(now.getTime() + WEBHOOK_RETRY_WINDOW_MS),
    created_at: now,
  };
}
