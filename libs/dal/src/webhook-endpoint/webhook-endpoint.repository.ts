import { randomInt } from 'node:crypto';
import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { duplicateKeyIndex, isDuplicateKeyError } from '../shared/duplicate-key';
import { type UpsertCounts, bulkUpsert, upsert } from '../shared/bulk-upsert';
import { TenantRepository } from '../shared/tenant-repository';
import { WEBHOOK_ENDPOINT_LIMIT, type WebhookEndpointEntity, type WebhookSecretEntity } from './webhook-endpoint.entity';
import type { WebhookEndpointListVersions } from './webhook-endpoint-list-versions';
import { WebhookEndpointModel } from './webhook-endpoint.schema';

export type NewWebhookEndpoint = Omit<WebhookEndpointEntity, 'business_id' | 'slot'>;

/** What the fan-out reads of an endpoint: which one it is, whether it is enabled, what it subscribes to. */
export type WebhookEndpointTarget = Pick<WebhookEndpointEntity, '_id' | 'enabled' | 'events'>;

export type WebhookEndpointChanges = Partial<Pick<WebhookEndpointEntity, 'url' | 'description' | 'events' | 'enabled' | 'failing_since'>> & { updated_at: Date };

/** Where a page of endpoints starts: after this (created_at, _id). */
export interface EndpointPagePosition {
  createdAt: Date;
  id: string;
}

/** A seeded endpoint (CONTRACT 8 `webhooks`): its id, URL, events and secret. */
export interface WebhookEndpointSeed {
  id: string;
  url: string;
  events: string[];
  secret: string;
}

/** An insert that lost to a concurrent one on its slot tries another; this many rounds bound a storm of creates. */
const SLOT_ATTEMPTS = WEBHOOK_ENDPOINT_LIMIT * 3;

/**
 * The webhook endpoints of a business. Methods named `...InAnyBusiness` serve the dispatcher, which
 * delivers for every tenant; they say so on purpose.
 *
 * Every write that may change a business's fan-out targets (which endpoints exist, `enabled`,
 * `events`) goes through `changingTargets`, which bumps the list's version for the processes that
 * cache it (docs/webhooks.md, Endpoint list cache). The writes of `failing_since` and of the
 * secrets do not: no cached list holds them.
 */
export class WebhookEndpointRepository extends TenantRepository<WebhookEndpointEntity> {
  constructor(private readonly listVersions: Pick<WebhookEndpointListVersions, 'bump'>) {
    super(WebhookEndpointModel);
  }

  async ensureIndexes(): Promise<void> {
    await WebhookEndpointModel.createIndexes();
  }

  /**
   * Inserts the endpoint in a free slot of its business, or answers 'limit_reached' when all 20
   * are taken. The unique `{business_id, slot}` index is the limit: of concurrent creates aiming at
   * the same slot one wins and the others pick again among the slots still free.
   */
  insertInFreeSlot(scope: BusinessScope, endpoint: NewWebhookEndpoint): Promise<WebhookEndpointEntity | 'limit_reached'> {
    return this.changingTargets(scope, () => this.insertInFreeSlotUnannounced(scope, endpoint));
  }

  private async insertInFreeSlotUnannounced(scope: BusinessScope, endpoint: NewWebhookEndpoint): Promise<WebhookEndpointEntity | 'limit_reached'> {
    for (let attempt = 0; attempt < SLOT_ATTEMPTS; attempt += 1) {
      const free = freeSlots(await this.usedSlots(scope));
      if (free.length === 0) return 'limit_reached';
      // A random free slot: concurrent creates rarely aim at the same one.
      const document: WebhookEndpointEntity = { ...endpoint, business_id: scope.businessId, slot: free[randomInt(free.length)]! };
      try {
        await WebhookEndpointModel.collection.insertOne(document as never);
        return document;
      } catch (error) {
        if (!isDuplicateKeyError(error) || duplicateKeyIndex(error) !== 'business_id_1_slot_1') throw error;
      }
    }
    throw new Error(`no free webhook endpoint slot taken after ${SLOT_ATTEMPTS} attempts`);
  }

  /** Index { business_id, slot }. */
  private async usedSlots(scope: BusinessScope): Promise<number[]> {
    const found = await WebhookEndpointModel.find(scopedFilter(scope, {}), { slot: 1 }).lean<{ slot: number }[]>().exec();
    return found.map((endpoint) => endpoint.slot);
  }

  /** Every endpoint of the business (at most 20) as the fan-out of an event reads it. Index { business_id, slot }. */
  listFanOutTargets(scope: BusinessScope): Promise<WebhookEndpointTarget[]> {
    return WebhookEndpointModel.find(scopedFilter(scope, {}), { _id: 1, enabled: 1, events: 1 }).lean<WebhookEndpointTarget[]>().exec();
  }

  /** Oldest first, `limit` after `after`. Index { business_id, created_at, _id }. */
  listPage(scope: BusinessScope, after: EndpointPagePosition | null, limit: number): Promise<WebhookEndpointEntity[]> {
    const keyset = after ? { $or: [{ created_at: { $gt: after.createdAt } }, { created_at: after.createdAt, _id: { $gt: after.id } }] } : {};
    return WebhookEndpointModel.find(scopedFilter(scope, keyset)).sort({ created_at: 1, _id: 1 }).limit(limit).lean<WebhookEndpointEntity[]>().exec();
  }

  /** The endpoint as changed, or null when there is none. Index { business_id, _id }. */
  update(scope: BusinessScope, id: string, changes: WebhookEndpointChanges): Promise<WebhookEndpointEntity | null> {
    return this.changingTargets(scope, () =>
      WebhookEndpointModel.findOneAndUpdate(scopedFilter(scope, { _id: id }), { $set: changes }, { returnDocument: 'after' }).lean<WebhookEndpointEntity>().exec(),
    );
  }

  /** Whether it existed. Index { business_id, _id }. */
  delete(scope: BusinessScope, id: string): Promise<boolean> {
    return this.changingTargets(scope, async () => (await WebhookEndpointModel.deleteOne(scopedFilter(scope, { _id: id }))).deletedCount === 1);
  }

  /**
   * Replaces the secrets if the newest one is still `expectedNewest` (a concurrent rotation loses
   * and reads again). Index { business_id, _id }: the filter's other key is checked on that one document.
   */
  async replaceSecrets(scope: BusinessScope, id: string, expectedNewest: string, secrets: WebhookSecretEntity[], at: Date): Promise<boolean> {
    const result = await WebhookEndpointModel.updateOne(scopedFilter(scope, { _id: id, 'secrets.0.secret': expectedNewest }), { $set: { secrets, updated_at: at } });
    return result.matchedCount === 1;
  }

  /** The endpoints of a claimed batch of deliveries, whatever their businesses (the dispatcher). Index _id. */
  findByIdsInAnyBusiness(ids: readonly string[]): Promise<WebhookEndpointEntity[]> {
    return WebhookEndpointModel.find({ _id: { $in: [...new Set(ids)] } }).lean<WebhookEndpointEntity[]>().exec();
  }

  /** First failed attempt since the last success (nothing when already failing). Index _id. */
  async markFailingInAnyBusiness(id: string, since: Date): Promise<void> {
    await WebhookEndpointModel.updateOne({ _id: id, failing_since: null }, { $set: { failing_since: since } });
  }

  /** A success ends the failing streak. Index _id. */
  async markSucceedingInAnyBusiness(id: string): Promise<void> {
    await WebhookEndpointModel.updateOne({ _id: id, failing_since: { $ne: null } }, { $set: { failing_since: null } });
  }

  /** Disables the endpoint if it is enabled and has failed every attempt since `failingSinceAtMost`; true when this call did. Index { business_id, _id }. */
  disableIfFailingSince(scope: BusinessScope, id: string, failingSinceAtMost: Date, at: Date): Promise<boolean> {
    return this.changingTargets(scope, async () => {
      const result = await WebhookEndpointModel.updateOne(scopedFilter(scope, { _id: id, enabled: true, failing_since: { $lte: failingSinceAtMost } }), {
        $set: { enabled: false, updated_at: at },
      });
      return result.modifiedCount === 1;
    });
  }

  /**
   * The seed's endpoints: URL, events and secret as the file says; a new one takes a free slot and
   * starts enabled. Throws when the business would have more than 20.
   */
  async upsertFromSeed(scope: BusinessScope, seeds: readonly WebhookEndpointSeed[], now: Date): Promise<UpsertCounts> {
    if (seeds.length === 0) return { inserted: 0, updated: 0 };
    return this.changingTargets(scope, () => this.upsertFromSeedUnannounced(scope, seeds, now));
  }

  private async upsertFromSeedUnannounced(scope: BusinessScope, seeds: readonly WebhookEndpointSeed[], now: Date): Promise<UpsertCounts> {
    const existing = new Map((await WebhookEndpointModel.find(scopedFilter(scope, {}), { slot: 1 }).lean<{ _id: string; slot: number }[]>().exec()).map((endpoint) => [endpoint._id, endpoint.slot]));
    const free = freeSlots([...existing.values()]);
    const operations = seeds.map((seed) => {
      const slot = existing.get(seed.id) ?? free.shift();
      if (slot === undefined) throw new Error(`business ${scope.businessId} would have more than ${WEBHOOK_ENDPOINT_LIMIT} webhook endpoints`);
      return upsert(
        scopedFilter(scope, { _id: seed.id }),
        { url: seed.url, events: seed.events, secrets: [{ secret: seed.secret, expires_at: null }] },
        { slot, description: null, enabled: true, failing_since: null, created_at: now, updated_at: now },
      );
    });
    return bulkUpsert(WebhookEndpointModel, operations);
  }

  /**
   * A write of the fan-out targets, between two bumps of the list's version. The bump after it is
   * what readers rely on: a reader that read the version after it reads the list after the write.
   * The bump before it refuses the write while Redis is unreachable, so a change is not made when
   * the caches could not be told of it (a bump lost after the write leaves them stale for their
   * lifetime at most).
   */
  private async changingTargets<T>(scope: BusinessScope, write: () => Promise<T>): Promise<T> {
    await this.listVersions.bump(scope);
    const result = await write();
    await this.listVersions.bump(scope);
    return result;
  }
}

function freeSlots(used: readonly number[]): number[] {
  const taken = new Set(used);
  return Array.from({ length: WEBHOOK_ENDPOINT_LIMIT }, (_, slot) => slot).filter((slot) => !taken.has(slot));
}
