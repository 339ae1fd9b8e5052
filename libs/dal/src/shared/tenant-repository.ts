import type { Collection, Document, Filter, UpdateFilter } from 'mongodb';
import type { Model } from 'mongoose';
import { type BusinessScope, scopedFilter } from './business-scope';
import { type UpsertCounts, bulkUpsert, upsert } from './bulk-upsert';

/** A document as the seed defines it: `set` on every load, `setOnInsert` on the first only (creation times). */
export interface SeedUpsert {
  id: string;
  set: Record<string, unknown>;
  setOnInsert?: Record<string, unknown>;
}

/**
 * What every repository of a tenant collection reads by id. The filter is exactly
 * `{ business_id, _id }`, which the collection's unique `{ business_id, _id }` index serves
 * (docs/data-layer.md, "The local server's planner").
 */
export abstract class TenantRepository<Entity extends { _id: string }> {
  protected constructor(protected readonly model: Model<any>) {}

  // The reads by id go through the driver: they are the commonest queries, and mongoose's query
  // building and casting cost more CPU than the driver's round trip for a filter of two strings.
  findById(scope: BusinessScope, id: string): Promise<Entity | null> {
    return this.collection().findOne(scopedFilter(scope, { _id: id }) as Filter<Entity>) as Promise<Entity | null>;
  }

  async findByIds(scope: BusinessScope, ids: readonly string[]): Promise<Entity[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    return (await this.collection().find(scopedFilter(scope, { _id: { $in: unique } }) as Filter<Entity>).toArray()) as Entity[];
  }

  async exists(scope: BusinessScope, id: string): Promise<boolean> {
    return (await this.model.exists(scopedFilter(scope, { _id: id }))) !== null;
  }

  /**
   * Upserts documents keyed by their id within the business, so loading the same seed again
   * creates nothing; an id that belongs to another business fails on the unique _id instead of
   * moving the document (UpsertConflictError).
   */
  upsertMany(scope: BusinessScope, documents: readonly SeedUpsert[]): Promise<UpsertCounts> {
    return bulkUpsert(
      this.model,
      documents.map((document) => upsert(scopedFilter(scope, { _id: document.id }), document.set, document.setOnInsert)),
    );
  }

  /**
   * Whether the id belongs to another business: read only to choose the error code the catalog
   * defines for it (TAG_BUSINESS_MISMATCH, CATEGORY_BUSINESS_MISMATCH), never to return data.
   */
  async existsInAnotherBusiness(scope: BusinessScope, id: string): Promise<boolean> {
    return (await this.model.exists({ _id: id, business_id: { $ne: scope.businessId } })) !== null;
  }

  /**
   * findOneAndUpdate through the driver: the document after the update (with `projection`), or null
   * when nothing matched. As with findById, mongoose's query building and the casting of the update
   * cost more CPU than the round trip on the writes made per send and per conversation change; the
   * repository methods that use it pass values of the stored types (Dates as Date, entries as
   * stored), which mongoose would otherwise have cast.
   */
  protected findOneAndUpdateDirect<Answer>(filter: Document, update: Document, projection?: Document): Promise<Answer | null> {
    return this.collection().findOneAndUpdate(filter as Filter<Entity>, update as UpdateFilter<Entity>, {
      returnDocument: 'after',
      ...(projection ? { projection } : {}),
    }) as unknown as Promise<Answer | null>;
  }

  /** The model's collection through the driver, typed as the repository's entity. */
  protected collection(): Collection<Entity> {
    return this.model.collection as unknown as Collection<Entity>;
  }
}

/** A tenant collection whose objects are also named (tags, mailboxes, AI employees...): `name_key` holds nameLookupKey(name). */
export abstract class NamedTenantRepository<Entity extends { _id: string }> extends TenantRepository<Entity> {
  /** The objects of that name, at most `limit` (two are enough to know a name is ambiguous). */
  findByNameKey(scope: BusinessScope, nameKey: string, limit = 2): Promise<Entity[]> {
    return this.model.find(scopedFilter(scope, { name_key: nameKey })).sort({ _id: 1 }).limit(limit).lean<Entity[]>().exec();
  }
}
