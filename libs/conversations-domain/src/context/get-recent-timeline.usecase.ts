import type { BusinessScope } from '@cmsg/dal';
import type { RecentTimeline } from '@cmsg/proto';
import { repositories } from '../repositories';
import { resolveConversationReference } from '../resolve-conversation-reference';
import { type TimelineItem, mergeRecentTimeline, timelineLimit } from './timeline-merge';
import { timelineTextOf } from './timeline-message-text';

/**
 * GetRecentTimeline: the last messages and notes of a conversation (the AI's context), oldest
 * first, media messages with their transcription. Each stream reads at most `limit` newest
 * entries, enough for the merged last `limit`.
 */
export async function getRecentTimeline(scope: BusinessScope, conversationUuid: string, requestedLimit: number): Promise<RecentTimeline> {
  const { conversation } = await resolveConversationReference(scope, { uuid: conversationUuid });
  const limit = timelineLimit(requestedLimit);
  const [messages, notes] = await Promise.all([
    repositories.messages.findRecent(scope, conversation._id, limit),
    repositories.timelineEvents.findRecentOfKind(scope, conversation._id, 'note', limit),
  ]);
  const messageItems = messages.map(
    (message): TimelineItem => ({
      role: message.is_from_customer ? 'customer' : 'business',
      text: timelineTextOf(message),
      at: message.created_at,
    }),
  );
  const noteItems = notes.map((note): TimelineItem => ({ role: 'note', text: note.body ?? '', at: note.created_at }));
  return { entries: mergeRecentTimeline(messageItems, noteItems, limit).map((entry) => ({ role: entry.role, text: entry.text, at: entry.at.toISOString() })) };
}
