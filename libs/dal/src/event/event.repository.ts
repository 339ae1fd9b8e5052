import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { insertIfAbsent, insertManyIfAbsent } from '../shared/duplicate-key';
import { TenantRepository } from '../shared/tenant-repository';
import type { EventEntity } from './event.entity';
import { EventModel } from './event.schema';

type Fields = Record<string, unknown>;

export interface EventPageQuery {
  /** One or several event types; absent: every type. */
  types?: readonly string[];
  conversationId?: string;
  /** The keyset filter on (created_at, _id) after the cursor, or the lower bound of created_at. */
  after: Fields;
  limit: number;
}

/** The events collection: append-only, one insert per event (docs/events.md). */
export class EventRepository extends TenantRepository<EventEntity> {
  constructor() {
    super(EventModel);
  }

  /** Inserts the event unless one with its id exists: true when this call inserted it. */
  insertIfAbsent(event: EventEntity): Promise<boolean> {
    // Through the driver: `data` is stored exactly as built (mongoose would drop an empty object).
    return insertIfAbsent(() => this.collection().insertOne(event));
  }

  /** The same for many in one insert: answers the ids this call inserted. */
  async insertManyIfAbsent(events: readonly EventEntity[]): Promise<Set<string>> {
    const lost = await insertManyIfAbsent(this.collection(), events);
    return new Set(events.filter((_event, index) => !lost.has(index)).map((event) => event._id));
  }

  /** One page of the business's events, oldest first (keyset on created_at, _id). */
  listPage(scope: BusinessScope, query: EventPageQuery): Promise<EventEntity[]> {
    const filter = scopedFilter(scope, {
      ...(query.conversationId !== undefined ? { conversation_id: query.conversationId } : {}),
      ...(query.types !== undefined ? { type: query.types.length === 1 ? query.types[0] : { $in: [...query.types] } } : {}),
      ...query.after,
    });
    return EventModel.find(filter).sort({ created_at: 1, _id: 1 }).limit(query.limit).lean<EventEntity[]>().exec();
  }
}
