import { addNoteEndpoint, conversationStatusEndpoint, conversationTimelineEndpoint, markPendingEndpoint, markResolvedEndpoint } from '@cmsg/api-schemas';
import { toAddNoteResponse, toInboxStatusChangeResponse } from '../mappers/conversation-change.mapper';
import { toConversationStatusSnapshot } from '../mappers/conversation-status.mapper';
import { toConversationTimelineResponse } from '../mappers/conversation-timeline.mapper';
import { type BusinessRoute, businessRoute } from './business-route';

export const conversationRoutes: readonly BusinessRoute[] = [
  businessRoute(conversationStatusEndpoint, {
    call: ({ conversations }, { caller, body }) => conversations.getConversationStatus({ caller, conversation: body.conversation }),
    toResponse: toConversationStatusSnapshot,
  }),
  businessRoute(addNoteEndpoint, {
    call: ({ conversations }, { caller, body }) => conversations.addNote({ caller, conversation: body.conversation, note: body.note, operation_id: '' }),
    toResponse: toAddNoteResponse,
  }),
  businessRoute(markPendingEndpoint, {
    call: ({ conversations }, { caller, body }) => conversations.markPending({ caller, conversation: body.conversation }),
    toResponse: toInboxStatusChangeResponse,
  }),
  businessRoute(markResolvedEndpoint, {
    call: ({ conversations }, { caller, body }) => conversations.markResolved({ caller, conversation: body.conversation }),
    toResponse: toInboxStatusChangeResponse,
  }),
  businessRoute(conversationTimelineEndpoint, {
    call: ({ conversations }, { caller, query }) =>
      conversations.getConversationTimeline({
        caller,
        conversation_uuid: query.conversation_uuid,
        kinds: query.kinds ?? [],
        order: query.order,
        cursor: query.cursor,
        limit: query.limit,
      }),
    toResponse: toConversationTimelineResponse,
  }),
];
