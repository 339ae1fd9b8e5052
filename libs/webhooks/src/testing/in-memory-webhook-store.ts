import {
  InProcessWebhookEndpointListVersions,
  type AttemptOutcome,
  type ClaimedDelivery,
  type DeliveryPagePosition,
  type DeliveryStatus,
  type DueDelivery,
  type EndpointPagePosition,
  type NewWebhookEndpoint,
  type WebhookDeliveryEntity,
  type WebhookDeliveryRepository,
  type WebhookEndpointChanges,
  type WebhookEndpointEntity,
  type WebhookEndpointRepository,
  type WebhookSecretEntity,
  WEBHOOK_ENDPOINT_LIMIT,
  businessScope,
  deliveryId,
} from '@cmsg/dal';

type Scope = { businessId: string };

/**
 * The repository methods the fan-out, the dispatcher and the endpoint use cases use, over arrays, with the same rules
 * (conditional on the version, due by due_at), for unit specs. The real ones run in the
 * integration specs.
 */
export class InMemoryWebhookStore {
  readonly endpoints: WebhookEndpointEntity[] = [];
  readonly deliveries: WebhookDeliveryEntity[] = [];
  /** Bumped by the writes of the endpoint list, as the real repository bumps its versions. */
  readonly listVersions = new InProcessWebhookEndpointListVersions();
  /** Reads of the endpoint list (the fan-out's MongoDB reads). */
  listReads = 0;

  readonly endpointRepository = {
    listFanOutTargets: async (scope: { businessId: string }) => {
      this.listReads += 1;
      return this.ofBusiness(scope).map(({ _id, enabled, events }) => ({ _id, enabled, events: [...events] }));
    },
    findById: async (scope: { businessId: string }, id: string) => this.endpoints.find((endpoint) => endpoint.business_id === scope.businessId && endpoint._id === id) ?? null,
    findByIdsInAnyBusiness: async (ids: readonly string[]) => this.endpoints.filter((endpoint) => ids.includes(endpoint._id)),
    markFailingInAnyBusiness: async (id: string, since: Date) => {
      const endpoint = this.endpoint(id);
      if (endpoint && !endpoint.failing_since) endpoint.failing_since = since;
    },
    markSucceedingInAnyBusiness: async (id: string) => {
      const endpoint = this.endpoint(id);
      if (endpoint) endpoint.failing_since = null;
    },
    disableIfFailingSince: async (scope: Scope, id: string, failingSinceAtMost: Date, _at: Date) => {
      const endpoint = this.ofBusiness(scope).find((stored) => stored._id === id);
      if (!endpoint || !endpoint.enabled || !endpoint.failing_since || endpoint.failing_since > failingSinceAtMost) return false;
      endpoint.enabled = false;
      await this.listVersions.bump(businessScope(scope.businessId));
      return true;
    },
    /** The lowest free slot of 0..19 (the real one picks a random free one: which one is never observable through the API). */
    insertInFreeSlot: async (scope: Scope, endpoint: NewWebhookEndpoint): Promise<WebhookEndpointEntity | 'limit_reached'> => {
      const used = new Set(this.ofBusiness(scope).map((stored) => stored.slot));
      const slot = Array.from({ length: WEBHOOK_ENDPOINT_LIMIT }, (_, free) => free).find((free) => !used.has(free));
      if (slot === undefined) return 'limit_reached';
      const stored: WebhookEndpointEntity = { ...endpoint, business_id: scope.businessId, slot };
      this.endpoints.push(stored);
      await this.listVersions.bump(businessScope(scope.businessId));
      return { ...stored };
    },
    listPage: async (scope: Scope, after: EndpointPagePosition | null, limit: number) =>
      this.ofBusiness(scope)
        .filter((endpoint) => !after || endpoint.created_at > after.createdAt || (endpoint.created_at.getTime() === after.createdAt.getTime() && endpoint._id > after.id))
        .sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || compare(a._id, b._id))
        .slice(0, limit)
        .map((endpoint) => ({ ...endpoint })),
    update: async (scope: Scope, id: string, changes: WebhookEndpointChanges) => {
      const endpoint = this.ofBusiness(scope).find((stored) => stored._id === id);
      if (!endpoint) return null;
      Object.assign(endpoint, changes);
      await this.listVersions.bump(businessScope(scope.businessId));
      return { ...endpoint };
    },
    delete: async (scope: Scope, id: string) => {
      const index = this.endpoints.findIndex((endpoint) => endpoint.business_id === scope.businessId && endpoint._id === id);
      if (index < 0) return false;
      this.endpoints.splice(index, 1);
      await this.listVersions.bump(businessScope(scope.businessId));
      return true;
    },
    /** Conditional on the newest secret, as the real one: a concurrent rotation makes it answer false. */
    replaceSecrets: async (scope: Scope, id: string, expectedNewest: string, secrets: WebhookSecretEntity[], at: Date) => {
      const endpoint = this.ofBusiness(scope).find((stored) => stored._id === id);
      if (!endpoint || endpoint.secrets[0]?.secret !== expectedNewest) return false;
      Object.assign(endpoint, { secrets, updated_at: at });
      return true;
    },
  } satisfies Partial<WebhookEndpointRepository>;

  readonly deliveryRepository = {
    enqueueMany: async (deliveries: readonly WebhookDeliveryEntity[]) => {
      const fresh = deliveries.filter((delivery) => !this.deliveries.some((stored) => stored._id === delivery._id));
      this.deliveries.push(...fresh.map((delivery) => ({ ...delivery })));
      return fresh.length;
    },
    findDueInAnyBusiness: async (now: Date, skip: readonly string[], limit: number): Promise<DueDelivery[]> =>
      this.deliveries
        .filter((delivery) => delivery.status === 'pending' && delivery.due_at !== null && delivery.due_at <= now && !skip.includes(delivery.endpoint_id))
        .sort((a, b) => a.due_at!.getTime() - b.due_at!.getTime())
        .slice(0, limit)
        .map((delivery) => ({ _id: delivery._id, endpoint_id: delivery.endpoint_id, version: delivery.version })),
    claimInAnyBusiness: async (due: readonly DueDelivery[], claimId: string, leaseUntil: Date): Promise<ClaimedDelivery[]> => {
      const claimed: ClaimedDelivery[] = [];
      for (const entry of due) {
        const delivery = this.deliveries.find((stored) => stored._id === entry._id && stored.version === entry.version);
        if (!delivery) continue;
        Object.assign(delivery, { claim_id: claimId, due_at: leaseUntil, version: delivery.version + 1 });
        claimed.push({ delivery: { ...delivery }, version: delivery.version });
      }
      return claimed;
    },
    recordOutcomesInAnyBusiness: async (outcomes: readonly { claimed: ClaimedDelivery; outcome: AttemptOutcome }[]) => {
      for (const { claimed, outcome } of outcomes) {
        const delivery = this.current(claimed);
        if (!delivery) continue;
        const status = outcome.error === null ? 'succeeded' : outcome.nextAttemptAt ? 'pending' : 'failed';
        const next = status === 'pending' ? outcome.nextAttemptAt : null;
        Object.assign(delivery, {
          status,
          last_attempt_at: outcome.at,
          last_status_code: outcome.statusCode,
          last_error: outcome.error,
          next_attempt_at: next,
          due_at: next,
          attempts: delivery.attempts + 1,
          version: delivery.version + 1,
        });
      }
    },
    abandonInAnyBusiness: async (claimed: ClaimedDelivery, reason: string) => {
      const delivery = this.current(claimed);
      if (delivery) Object.assign(delivery, { status: 'failed', last_error: reason, next_attempt_at: null, due_at: null, version: delivery.version + 1 });
    },
    failPendingOfEndpoint: async (_scope: unknown, endpointId: string, reason: string) => {
      const pending = this.deliveries.filter((delivery) => delivery.endpoint_id === endpointId && delivery.status === 'pending');
      for (const delivery of pending) Object.assign(delivery, { status: 'failed', last_error: reason, next_attempt_at: null, due_at: null, version: delivery.version + 1 });
      return pending.length;
    },
    listPage: async (scope: Scope, endpointId: string, status: DeliveryStatus | null, before: DeliveryPagePosition | null, limit: number) =>
      this.deliveries
        .filter((delivery) => delivery.business_id === scope.businessId && delivery.endpoint_id === endpointId && (status === null || delivery.status === status))
        .filter((delivery) => !before || delivery.created_at < before.createdAt || (delivery.created_at.getTime() === before.createdAt.getTime() && delivery._id < before.id))
        .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || compare(b._id, a._id))
        .slice(0, limit)
        .map((delivery) => ({ ...delivery })),
    redeliver: async (scope: Scope, endpointId: string, eventId: string, now: Date, retryUntil: Date) => {
      const delivery = this.deliveries.find((stored) => stored.business_id === scope.businessId && stored._id === deliveryId(eventId, endpointId));
      if (!delivery) return null;
      Object.assign(delivery, { status: 'pending', attempts: 0, next_attempt_at: now, due_at: now, retry_until: retryUntil, last_error: null, version: delivery.version + 1 });
      return { ...delivery };
    },
  } satisfies Partial<WebhookDeliveryRepository>;

  endpoint(id: string): WebhookEndpointEntity | undefined {
    return this.endpoints.find((endpoint) => endpoint._id === id);
  }

  private ofBusiness(scope: Scope): WebhookEndpointEntity[] {
    return this.endpoints.filter((endpoint) => endpoint.business_id === scope.businessId);
  }

  private current(claimed: ClaimedDelivery): WebhookDeliveryEntity | undefined {
    return this.deliveries.find((stored) => stored._id === claimed.delivery._id && stored.version === claimed.version);
  }
}

/** Code-unit order, as MongoDB compares string ids. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function endpointEntity(fields: Partial<WebhookEndpointEntity> & Pick<WebhookEndpointEntity, '_id'>): WebhookEndpointEntity {
  const created = new Date('2026-01-01T00:00:00Z');
  return {
    business_id: 'b1',
    slot: 0,
    url: 'https://hooks.example.com/a',
    description: null,
    events: ['*'],
    enabled: true,
    secrets: [{ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', expires_at: null }],
    failing_since: null,
    created_at: created,
    updated_at: created,
    ...fields,
  };
}
