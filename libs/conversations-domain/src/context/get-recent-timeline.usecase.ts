import { type BusinessScope, MessageModel, TimelineEventModel, scopedFilter } from '@cmsg/dal';
import type { RecentTimeline } from '@cmsg/proto';
import { resolveConversationReference } from '../resolve-conversation-reference';
import { type TimelineItem, mergeRecentTimeline, timelineLimit } from './timeline-merge';
import { type TimelineMessageFields, timelineTextOf } from './timeline-message-text';

interface StoredMessage extends TimelineMessageFields {
  is_from_customer: boolean;
  created_at: Date;
}

interface StoredNote {
  body?: string | null;
  created_at: Date;
}

/**
 * GetRecentTimeline: the last messages and notes of a conversation (the AI's context), oldest
 * first, media messages with their transcription. Each stream reads at most `limit` newest
 * entries, enough for the merged last `limit`.
 */
export async function getRecentTimeline(scope: BusinessScope, conversationUuid: string, requestedLimit: number): Promise<RecentTimeline> {
  const { conversation } = await resolveConversationReference(scope, { uuid: conversationUuid });
  const limit = timelineLimit(requestedLimit);
  const ofConversation = scopedFilter(scope, { conversation_id: conversation._id });
  const [messages, notes] = await Promise.all([
    MessageModel.find(ofConversation, { is_from_customer: 1, body: 1, content_type: 1, transcription: 1, created_at: 1 }).sort({ created_at: -1, _id: -1 }).limit(limit).lean<StoredMessage[]>(),
    TimelineEventModel.find({ ...ofConversation, kind: 'note' }, { body: 1, created_at: 1 }).sort({ created_at: -1, _id: -1 }).limit(limit).lean<StoredNote[]>(),
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
