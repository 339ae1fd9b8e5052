import type { BusinessScope } from '@cmsg/dal';
import type { RecentTimeline, TimelineEntry } from '@cmsg/proto';
import { type ConversationLookup, resolveConversation } from '../conversation/conversation-resolver';
import { readTimeline } from '../timeline/read-timeline';
import { timelineLimit, type TimelineRow } from '../timeline/timeline-merge';
import type { TimelineStores } from '../timeline/timeline-stores';
import { timelineTextOf } from './timeline-message-text';

/** What the AI's recent timeline reads: the conversation, then its messages and notes. */
export interface RecentTimelinePorts extends TimelineStores {
  lookup: ConversationLookup;
}

/**
 * GetRecentTimeline: the last messages and notes of a conversation (the AI's context), oldest
 * first, media messages with their transcription: the newest `limit` rows of the timeline, the
 * same rows in the same order as GET /conversation/timeline shows.
 */
export async function getRecentTimeline(ports: RecentTimelinePorts, scope: BusinessScope, conversationUuid: string, requestedLimit: number): Promise<RecentTimeline> {
  const conversation = await resolveConversation(ports.lookup, scope, { uuid: conversationUuid });
  const newestFirst = await readTimeline(ports, scope, conversation._id, { messages: true, timelineEventKinds: ['note'], order: 'desc', limit: timelineLimit(requestedLimit) });
  return { entries: newestFirst.reverse().map(contextEntryOf) };
}

function contextEntryOf(row: TimelineRow): TimelineEntry {
  const at = row.row.created_at.toISOString();
  if (row.source === 'timeline_event') return { role: 'note', text: row.row.body ?? '', at };
  return { role: row.row.is_from_customer ? 'customer' : 'business', text: timelineTextOf(row.row), at };
}
