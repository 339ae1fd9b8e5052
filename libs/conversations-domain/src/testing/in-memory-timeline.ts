import type { BusinessScope, MessageEntity, StoredTimelineEvent, TimelinePage } from '@cmsg/dal';
import type { TimelineStores } from '../timeline/timeline-stores';
import { keysetOrder, matchesKeyset } from './in-memory-keyset';

/** A stored message; `overrides` sets what a spec cares about. */
export function messageRow(overrides: Partial<MessageEntity> & Pick<MessageEntity, '_id' | 'business_id' | 'conversation_id' | 'created_at'>): MessageEntity {
  return { is_from_customer: true, body: '', content_type: 'text', status: 'received', transcription: null, author: null, ...overrides } as MessageEntity;
}

/** A stored note (kind note); `overrides` sets what a spec cares about. */
export function noteRow(overrides: Partial<StoredTimelineEvent> & Pick<StoredTimelineEvent, '_id' | 'business_id' | 'conversation_id' | 'created_at'>): StoredTimelineEvent {
  return { kind: 'note', body: '', author: { type: 'api_token', uuid: 'tok-1' }, ...overrides } as StoredTimelineEvent;
}

/** The messages and timeline events of every business in memory, each read a stretch at a time as their repositories read them. */
export class InMemoryTimeline implements TimelineStores {
  readonly messageRows: MessageEntity[] = [];
  readonly eventRows: StoredTimelineEvent[] = [];

  readonly messages = {
    findTimelinePage: async (scope: BusinessScope, conversationId: string, page: TimelinePage) => stretch(this.messageRows, scope, conversationId, page),
  };

  readonly timelineEvents = {
    findTimelinePage: async (scope: BusinessScope, conversationId: string, kinds: readonly string[], page: TimelinePage) =>
      stretch(
        this.eventRows.filter((row) => kinds.includes(row.kind)),
        scope,
        conversationId,
        page,
      ),
  };
}

function stretch<Row extends { _id: string; business_id: string; conversation_id: string; created_at: Date }>(rows: Row[], scope: BusinessScope, conversationId: string, page: TimelinePage): Row[] {
  return rows
    .filter((row) => row.business_id === scope.businessId && row.conversation_id === conversationId && matchesKeyset(row, page.after))
    .sort(keysetOrder<Row>('created_at', page.direction))
    .slice(0, page.limit);
}
