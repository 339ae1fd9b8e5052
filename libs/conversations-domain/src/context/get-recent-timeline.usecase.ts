import type { BusinessScope } from '@cmsg/dal';
import type { RecentTimeline, TimelineEntry } from '@cmsg/proto';
import { resolveConversation } from '../conversation/resolve-conversation-reference';
import { readTimeline } from '../timeline/read-timeline';
import { timelineLimit, type TimelineRow } from '../timeline/timeline-merge';
import { timelineTextOf } from './timeline-message-text';

/**
 * GetRecentTimeline: the last messages and notes of a conversation (the AI's context), oldest
 * first, media messages with their transcription: the newest `limit` rows of the timeline, the
 * same rows in the same order as GET /conversation/timeline shows.
 */
export async function getRecentTimeline(scope: BusinessScope, conversationUuid: string, requestedLimit: number): Promise<RecentTimeline> {
  const conversation = await resolveConversation(scope, { uuid: conversationUuid });
  const newestFirst = await readTimeline(scope, conversation._id, { messages: true, timelineEventKinds: ['note'], order: 'desc', limit: timelineLimit(requestedLimit) });
  return { entries: newestFirst.reverse().map(contextEntryOf) };
}

function contextEntryOf(row: TimelineRow): TimelineEntry {
  const at = row.row.created_at.toISOString();
  if (row.source === 'timeline_event') return { role: 'note', text: row.row.body ?? '', at };
  return { role: row.row.is_from_customer ? 'customer' : 'business', text: timelineTextOf(row.row), at };
}
