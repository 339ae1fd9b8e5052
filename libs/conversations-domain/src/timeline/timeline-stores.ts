import type { BusinessScope, MessageEntity, StoredTimelineEvent, TimelinePage } from '@cmsg/dal';

/** A conversation's messages and its notes and events, each read a stretch at a time in timeline order (MessageRepository, TimelineEventRepository). */
export interface TimelineStores {
  messages: { findTimelinePage(scope: BusinessScope, conversationId: string, page: TimelinePage): Promise<MessageEntity[]> };
  timelineEvents: { findTimelinePage(scope: BusinessScope, conversationId: string, kinds: readonly string[], page: TimelinePage): Promise<StoredTimelineEvent[]> };
}

/** Who the AI employees named on a page are (AiEmployeeRepository). */
export interface AiEmployeeNames {
  findByIds(scope: BusinessScope, ids: readonly string[]): Promise<{ _id: string; name: string }[]>;
}
