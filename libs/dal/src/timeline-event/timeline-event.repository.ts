import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { insertIfAbsent, insertManyIfAbsent } from '../shared/duplicate-key';
import type { OutboxAuthor, OutboxEntry } from '../shared/outbox-entry.schema';
import { TenantRepository } from '../shared/tenant-repository';
import type { TimelinePage } from '../shared/timeline-page';
import type { TimelineEventEntity } from './timeline-event.entity';
import { TimelineEventModel } from './timeline-event.schema';

/**
 * An entry as stored: an event's type is in `event_type` (kind `event`), or in `kind` itself for the
 * inbox status changes written before events existed; `author.name` where the writer knew it.
 */
export type StoredTimelineEvent = TimelineEventEntity & {
  event_type?: string | null;
  author: { type: string; uuid?: string | null; name?: string | null };
};

export interface TimelineAuthor {
  type: string;
  uuid: string | null;
  name?: string | null;
}

export interface NewTimelineEvent {
  id: string;
  conversationId: string;
  kind: 'note' | 'event';
  body?: string | null;
  /** kind event: what happened (inbox_status_changed, tags_changed, ...). */
  eventType?: string | null;
  data?: Record<string, unknown> | null;
  author: TimelineAuthor;
  createdAt: Date;
  /** A note's note.created entry, written with it. */
  outbox?: OutboxEntry[];
}

/** The timeline of a conversation beside its messages: notes and the events of its changes. Append-only. */
export class TimelineEventRepository extends TenantRepository<TimelineEventEntity> {
  constructor() {
    super(TimelineEventModel);
  }

  /** Inserts the entry unless one with its id exists (ids derived from what they record make a repeat harmless): true when inserted. */
  insertIfAbsent(scope: BusinessScope, event: NewTimelineEvent): Promise<boolean> {
    // Through the driver (every recorded event inserts a row): `data` is stored exactly as built,
    // as its event's is (mongoose would drop an empty object).
    return insertIfAbsent(() => this.collection().insertOne(storedRow(scope, event)));
  }

  /** The same for many rows in one insert. */
  async insertManyIfAbsent(scope: BusinessScope, events: readonly NewTimelineEvent[]): Promise<void> {
    await insertManyIfAbsent(this.collection(), events.map((event) => storedRow(scope, event)));
  }

  /** One stretch of the conversation's entries of these kinds in timeline order. */
  findTimelinePage(scope: BusinessScope, conversationId: string, kinds: readonly string[], page: TimelinePage): Promise<StoredTimelineEvent[]> {
    return TimelineEventModel.find(scopedFilter(scope, { conversation_id: conversationId, kind: { $in: [...kinds] }, ...page.after }))
      .sort({ created_at: page.direction, _id: page.direction })
      .limit(page.limit)
      .lean<StoredTimelineEvent[]>()
      .exec();
  }
}

function storedRow(scope: BusinessScope, event: NewTimelineEvent) {
  const author: OutboxAuthor = { type: event.author.type, uuid: event.author.uuid, name: event.author.name ?? null };
  return {
    _id: event.id,
    business_id: scope.businessId,
    conversation_id: event.conversationId,
    kind: event.kind,
    body: event.body ?? null,
    event_type: event.eventType ?? null,
    data: event.data ?? null,
    author,
    created_at: event.createdAt,
    ...(event.outbox ? { outbox: event.outbox } : {}),
  };
}
