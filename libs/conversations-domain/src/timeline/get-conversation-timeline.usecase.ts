import { CatalogError } from '@cmsg/errors';
import type { BusinessScope } from '@cmsg/dal';
import type { GetConversationTimelineResponse } from '@cmsg/proto';
import type { ListCursorCodec } from '../listing/list-cursor';
import type { ConversationFinder } from '../conversation/conversation-resolver';
import { readTimeline } from './read-timeline';
import { loadTimelineAuthorNames } from './timeline-authors';
import { LEGACY_INBOX_STATUS_KIND, timelineItemOf } from './timeline-items';
import { type TimelineOrder, timelinePositionOf } from './timeline-merge';
import type { AiEmployeeNames, TimelineStores } from './timeline-stores';

export const TIMELINE_ENDPOINT = 'conversation-timeline';

/** The kinds of items a timeline shows (CONTRACT 9.1), in the order a cursor binds them. */
export const TIMELINE_KINDS = ['message', 'note', 'event'] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export const MAX_TIMELINE_PAGE = 100;

/** What the public timeline reads: the conversation, its rows, the names of their authors. */
export interface ConversationTimelinePorts extends TimelineStores {
  conversations: Pick<ConversationFinder, 'findById'>;
  aiEmployees: AiEmployeeNames;
}

export interface ConversationTimelineRequest {
  conversationUuid: string;
  /** Empty: every kind. */
  kinds: readonly string[];
  order: TimelineOrder;
  cursor?: string;
  limit: number;
}

/**
 * GET /conversation/timeline: one page of the conversation's messages, notes and events, the
 * rows the AI employees read (readTimeline), with their authors' names. The cursor is bound to
 * the conversation, the kinds and the order.
 */
export async function getConversationTimeline(ports: ConversationTimelinePorts, scope: BusinessScope, codec: ListCursorCodec, request: ConversationTimelineRequest): Promise<GetConversationTimelineResponse> {
  const kinds = timelineKindsOf(request.kinds);
  if (!Number.isInteger(request.limit) || request.limit < 1 || request.limit > MAX_TIMELINE_PAGE) {
    throw new CatalogError('INVALID_REQUEST', `Invalid request: limit must be an integer from 1 to ${MAX_TIMELINE_PAGE}.`);
  }
  const conversation = await ports.conversations.findById(scope, request.conversationUuid);
  if (!conversation) throw new CatalogError('CONVERSATION_NOT_FOUND');
  const boundTo = { conversation: conversation._id, kinds: kinds.join(',') };
  const after = request.cursor ? codec.decode(request.cursor, TIMELINE_ENDPOINT, request.order, boundTo) : undefined;
  const rows = await readTimeline(ports, scope, conversation._id, {
    messages: kinds.includes('message'),
    timelineEventKinds: [...(kinds.includes('note') ? ['note'] : []), ...(kinds.includes('event') ? ['event', LEGACY_INBOX_STATUS_KIND] : [])],
    order: request.order,
    after,
    limit: request.limit + 1,
  });
  const page = rows.slice(0, request.limit);
  const hasMore = rows.length > request.limit;
  const names = await loadTimelineAuthorNames(ports.aiEmployees, scope, conversation, page);
  return {
    items: page.map((row) => timelineItemOf(row, names)),
    has_more: hasMore,
    next_cursor: hasMore ? codec.encode(TIMELINE_ENDPOINT, request.order, timelinePositionOf(page[page.length - 1]!), boundTo) : '',
  };
}

/** The requested kinds, each once in a fixed order; none means all. */
export function timelineKindsOf(requested: readonly string[]): TimelineKind[] {
  const unknown = requested.filter((kind) => !(TIMELINE_KINDS as readonly string[]).includes(kind));
  if (unknown.length > 0) throw new CatalogError('INVALID_REQUEST', `Invalid request: kinds: unknown kind ${unknown.map((kind) => JSON.stringify(kind)).join(', ')}; use ${TIMELINE_KINDS.join(', ')}.`);
  return requested.length === 0 ? [...TIMELINE_KINDS] : TIMELINE_KINDS.filter((kind) => requested.includes(kind));
}
