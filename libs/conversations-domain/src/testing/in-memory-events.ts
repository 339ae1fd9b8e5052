import type { BusinessScope, EventEntity, EventPageQuery } from '@cmsg/dal';
import type { EventStore } from '../events/event-ports';

/** An event as recorded; `overrides` sets what a spec cares about. */
export function eventRow(overrides: Partial<EventEntity> & Pick<EventEntity, '_id' | 'business_id' | 'created_at'>): EventEntity {
  return { business_slug: 'acme', conversation_id: null, sequence: 1, type: 'message.received', data: {}, ...overrides };
}

type Fields = Record<string, unknown>;

/**
 * The events collection in memory, oldest first (created_at, _id). `after` is read in the two
 * shapes listEvents builds: a lower bound `{created_at: {$gte}}` or a keyset `$or` after a cursor;
 * any other shape throws, so a change of the query shape shows here.
 */
export class InMemoryEvents implements EventStore {
  readonly rows: EventEntity[] = [];

  async findById(scope: BusinessScope, id: string): Promise<EventEntity | null> {
    return this.rows.find((row) => row.business_id === scope.businessId && row._id === id) ?? null;
  }

  async listPage(scope: BusinessScope, query: EventPageQuery): Promise<EventEntity[]> {
    const after = keysetPredicate(query.after);
    return this.rows
      .filter((row) => row.business_id === scope.businessId)
      .filter((row) => query.types === undefined || query.types.includes(row.type))
      .filter((row) => query.conversationId === undefined || row.conversation_id === query.conversationId)
      .filter(after)
      .sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a._id.localeCompare(b._id))
      .slice(0, query.limit);
  }
}

function keysetPredicate(after: Fields): (row: EventEntity) => boolean {
  const bound = after['created_at'] as { $gte?: Date } | undefined;
  if (Object.keys(after).length === 1 && bound?.$gte instanceof Date) {
    const floor = bound.$gte.getTime();
    return (row) => row.created_at.getTime() >= floor;
  }
  const branches = after['$or'] as [{ created_at: { $gt: Date } }, { created_at: Date; _id: { $gt: string } }] | undefined;
  if (Object.keys(after).length === 1 && branches?.length === 2 && branches[0].created_at.$gt instanceof Date) {
    const at = branches[0].created_at.$gt.getTime();
    const id = branches[1]._id.$gt;
    return (row) => row.created_at.getTime() > at || (row.created_at.getTime() === at && row._id > id);
  }
  throw new Error(`InMemoryEvents: unexpected keyset ${JSON.stringify(after)}`);
}
