import type { BusinessScope, EventEntity, EventPageQuery } from '@cmsg/dal';

/** The events collection as GET /events reads it (EventRepository in the app). */
export interface EventStore {
  findById(scope: BusinessScope, id: string): Promise<EventEntity | null>;
  listPage(scope: BusinessScope, query: EventPageQuery): Promise<EventEntity[]>;
}

/** What reading events needs: the store and the clock the 30-day retention is counted from. */
export interface EventReadPorts {
  events: EventStore;
  clock: () => Date;
}
