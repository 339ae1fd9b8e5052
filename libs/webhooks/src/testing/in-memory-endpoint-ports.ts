import type { BusinessEntity, WebhookDeliveryRepository, WebhookEndpointRepository } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import type { WebhookEndpointDependencies } from '../endpoints/webhook-endpoint-dependencies';
import { cachedWebhookFanOut } from '../fan-out/cached-webhook-fan-out';
import type { PageCursorCodec } from '../ports';
import { type WebhookUrlPolicy, WebhookUrlRefusedError } from '../url-policy/webhook-url-policy';
import type { InMemoryWebhookStore } from './in-memory-webhook-store';

/**
 * Cursors bound to the list and the order they were made for, as the conversations service's
 * signed ListCursorCodec binds them (unsigned here: the specs test the use cases, not the codec).
 */
export class InMemoryPageCursors implements PageCursorCodec {
  encode(endpoint: string, order: 'asc' | 'desc', position: { sortAt: number; id: string }): string {
    return Buffer.from(JSON.stringify({ e: endpoint, o: order, k: [position.sortAt, position.id] })).toString('base64url');
  }

  decode(cursor: string, endpoint: string, order: 'asc' | 'desc'): { sortAt: number; id: string } {
    let payload: { e?: unknown; o?: unknown; k?: unknown };
    try {
      payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as typeof payload;
    } catch {
      throw new CatalogError('INVALID_CURSOR');
    }
    const [sortAt, id] = Array.isArray(payload.k) ? payload.k : [];
    if (payload.e !== endpoint || payload.o !== order || typeof sortAt !== 'number' || typeof id !== 'string') throw new CatalogError('INVALID_CURSOR');
    return { sortAt, id };
  }
}

type WebhookUrlResolver = NonNullable<WebhookUrlPolicy['resolve']>;

/** Addresses from a table, as DNS would answer (a host not in it does not resolve): the URL policy never reaches the network. */
export function tableResolver(table: Record<string, string[]>): WebhookUrlResolver {
  return async (host) => {
    const addresses = table[host];
    if (!addresses) throw new WebhookUrlRefusedError(`the host ${host} does not resolve (ENOTFOUND)`);
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

export interface EndpointPortsOptions {
  now: () => Date;
  /** Business id to slug; a business missing here is not found. */
  businesses?: Record<string, string>;
  resolve?: WebhookUrlResolver;
  allowPrivate?: boolean;
  /** Stand-ins for some endpoint repository methods (a concurrent write between a read and a write). */
  endpoints?: Partial<InMemoryWebhookStore['endpointRepository']>;
}

/**
 * The endpoint use cases' ports over the store, with the real fan-out. The ports are the
 * repository classes, whose protected members no plain object has: the cast is made here once,
 * and the store's `satisfies` keeps each method's signature that of the real repository.
 */
export function inMemoryEndpointPorts(store: InMemoryWebhookStore, options: EndpointPortsOptions): WebhookEndpointDependencies {
  const endpoints = { ...store.endpointRepository, ...options.endpoints } as unknown as WebhookEndpointRepository;
  const deliveries = store.deliveryRepository as unknown as WebhookDeliveryRepository;
  const clock = { now: options.now };
  const businesses = options.businesses ?? {};
  return {
    endpoints,
    deliveries,
    // The use cases read only the slug of a business.
    businesses: { findById: async (scope) => (businesses[scope.businessId] ? ({ _id: scope.businessId, slug: businesses[scope.businessId] } as unknown as BusinessEntity) : null) },
    fanOut: cachedWebhookFanOut({ endpoints, versions: store.listVersions, deliveries, clock }),
    urlPolicy: { allowPrivate: options.allowPrivate ?? false, resolve: options.resolve ?? tableResolver({}) },
    cursors: new InMemoryPageCursors(),
    clock,
  };
}
