import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { insertIfAbsent } from '../shared/duplicate-key';
import { TenantRepository } from '../shared/tenant-repository';
import type { TimelineEventEntity } from './timeline-event.entity';
import { TimelineEventModel } from './timeline-event.schema';

export interface TimelineAuthor {
  type: string;
  uuid: string | null;
}

export interface NewTimelineEvent {
  id: string;
  conversationId: string;
  kind: string;
  body?: string | null;
  data?: Record<string, unknown> | null;
  author: TimelineAuthor;
  createdAt: Date;
}

/** The timeline of a conversation beside its messages: notes and the events of its changes. Append-only. */
export class TimelineEventRepository extends TenantRepository<TimelineEventEntity> {
  constructor() {
    super(TimelineEventModel);
  }

  /** Inserts the entry unless one with its id exists (ids derived from what they record make a repeat harmless): true when inserted. */
  insertIfAbsent(scope: BusinessScope, event: NewTimelineEvent): Promise<boolean> {
    return insertIfAbsent(() =>
      TimelineEventModel.create({
        _id: event.id,
        business_id: scope.businessId,
        conversation_id: event.conversationId,
        kind: event.kind,
        body: event.body ?? null,
        data: event.data ?? null,
        author: event.author,
        created_at: event.createdAt,
      }),
    );
  }

  /** The conversation's newest entries of one kind, newest first. */
  findRecentOfKind(scope: BusinessScope, conversationId: string, kind: string, limit: number): Promise<TimelineEventEntity[]> {
    return TimelineEventModel.find(scopedFilter(scope, { conversation_id: conversationId, kind }))
      .sort({ created_at: -1, _id: -1 })
      .limit(limit)
      .lean<TimelineEventEntity[]>()
      .exec();
  }
}
