import type { BusinessScope, WebhookEndpointListVersions, WebhookEndpointRepository, WebhookEndpointTarget } from '@cmsg/dal';
import { sharedPerTurn } from '@cmsg/platform';

/** Where the fan-out finds a business's endpoints. */
export interface EndpointDirectory {
  /** The business's enabled endpoints with the events each subscribes to, as they are since the last change answered. */
  enabledTargetsOf(scope: BusinessScope): Promise<readonly WebhookEndpointTarget[]>;
}

/**
 * A cached list is read again after this long even when its version stayed the same: the bound on
 * a change whose version bump was lost (Redis failed right after the write) or made outside the
 * repository (by hand in the database).
 */
export const ENDPOINT_LIST_LIFETIME_MS = 60_000;
/** Businesses whose lists one process keeps at most; the least recently used goes first. */
export const ENDPOINT_LIST_MAX_BUSINESSES = 10_000;

export interface CachedEndpointDirectoryOptions {
  lifetimeMs?: number;
  maxBusinesses?: number;
  /** Milliseconds, for the lifetime. */
  now?: () => number;
}

interface CachedList {
  version: string;
  /** When the read of the list started. */
  loadedAt: number;
  targets: readonly WebhookEndpointTarget[];
}

/**
 * Each business's endpoint list kept in memory under the version it was read at: one version read
 * (a Redis GET) per event, shared by the events of the business that arrive in the same turn of the
 * event loop (the read starts once the turn ends, after every event that shares it); the list read
 * from MongoDB again only when the version changed, the lifetime ran out or the version cannot be
 * read (docs/webhooks.md, Endpoint list cache). Every write of the list bumps the version after
 * the write and before it is answered, and the version is read here before the list, so an event
 * recorded after a change was answered is fanned out to the changed list, in every process.
 */
export class CachedEndpointDirectory implements EndpointDirectory {
  private readonly lists = new Map<string, CachedList>();
  /** Reads in flight, one per business: events of the same version share it. */
  private readonly loads = new Map<string, { version: string; list: Promise<CachedList> }>();
  /** The version reads of one turn, one per business. */
  private readonly currentVersion: (scope: BusinessScope) => Promise<string>;
  private readonly lifetimeMs: number;
  private readonly maxBusinesses: number;
  private readonly now: () => number;

  constructor(
    private readonly endpoints: Pick<WebhookEndpointRepository, 'listFanOutTargets'>,
    private readonly versions: Pick<WebhookEndpointListVersions, 'current'>,
    options: CachedEndpointDirectoryOptions = {},
  ) {
    this.lifetimeMs = options.lifetimeMs ?? ENDPOINT_LIST_LIFETIME_MS;
    this.maxBusinesses = options.maxBusinesses ?? ENDPOINT_LIST_MAX_BUSINESSES;
    this.now = options.now ?? Date.now;
    this.currentVersion = sharedPerTurn((scope: BusinessScope) => scope.businessId, (scope) => this.versions.current(scope));
  }

  async enabledTargetsOf(scope: BusinessScope): Promise<readonly WebhookEndpointTarget[]> {
    let version: string;
    try {
      version = await this.currentVersion(scope);
    } catch {
      // Without the version no kept list can be trusted: MongoDB answers, and nothing is kept.
      this.lists.delete(scope.businessId);
      return this.read(scope);
    }
    const cached = this.lists.get(scope.businessId);
    if (cached && cached.version === version && this.now() - cached.loadedAt < this.lifetimeMs) {
      this.keep(scope.businessId, cached);
      return cached.targets;
    }
    return (await this.load(scope, version)).targets;
  }

  private async load(scope: BusinessScope, version: string): Promise<CachedList> {
    const pending = this.loads.get(scope.businessId);
    // A read under the same version started after that version was made: its list is as new as another read's.
    if (pending && pending.version === version) return pending.list;
    const loadedAt = this.now();
    const list = this.read(scope).then((targets) => ({ version, loadedAt, targets }));
    this.loads.set(scope.businessId, { version, list });
    try {
      const loaded = await list;
      const kept = this.lists.get(scope.businessId);
      // A read that started later may have finished first: the later one stays.
      if (!kept || kept.loadedAt <= loaded.loadedAt) this.keep(scope.businessId, loaded);
      return loaded;
    } finally {
      if (this.loads.get(scope.businessId)?.list === list) this.loads.delete(scope.businessId);
    }
  }

  private async read(scope: BusinessScope): Promise<readonly WebhookEndpointTarget[]> {
    return (await this.endpoints.listFanOutTargets(scope)).filter((endpoint) => endpoint.enabled);
  }

  /** Most recently used last; the first ones go when there are too many. */
  private keep(businessId: string, list: CachedList): void {
    this.lists.delete(businessId);
    this.lists.set(businessId, list);
    for (const oldest of this.lists.keys()) {
      if (this.lists.size <= this.maxBusinesses) break;
      this.lists.delete(oldest);
    }
  }
}
