import { businessScope } from '@cmsg/dal';
import {
  addNote,
  authenticateToken,
  conversationListFiltersOf,
  getConversationStatus,
  getConversationTimeline,
  getEvent,
  getTemplate,
  listChannels,
  listContacts,
  listConversations,
  type ListCursorCodec,
  listEvents,
  listTemplates,
  setInboxStatusByReference,
  type ChannelLimitsStore,
  type TemplateDependencies,
  updateChannelLimits,
} from '@cmsg/conversations-domain';
import { CatalogError } from '@cmsg/errors';
import type { OutboxRecorder } from '@cmsg/events';
import type { AsyncUnaryImplementation } from '@cmsg/platform';
import type { Caller, ConversationReference, ConversationsServiceServer } from '@cmsg/proto';

export interface ConversationsHandlerDependencies {
  cursorCodec: ListCursorCodec;
  outbox: OutboxRecorder;
  templates: TemplateDependencies;
  channelLimits: ChannelLimitsStore;
}

/** Transport adapter: proto request -> use case -> proto response. No rules live here. */
export function conversationsHandlers(dependencies: ConversationsHandlerDependencies): AsyncUnaryImplementation<ConversationsServiceServer> {
  const { cursorCodec, outbox, templates, channelLimits } = dependencies;
  return {
    authenticateToken: (request) => authenticateToken(request.token_sha256),
    getConversationStatus: (request) => getConversationStatus(scopeOf(request.caller), referenceOf(request.conversation)),
    listConversations: (request) =>
      listConversations(scopeOf(request.caller), cursorCodec, {
        cursor: request.cursor,
        limit: request.limit,
        order: request.order === 'asc' ? 'asc' : 'desc',
        filters: conversationListFiltersOf(request),
      }),
    listContacts: (request) =>
      listContacts(scopeOf(request.caller), cursorCodec, {
        cursor: request.cursor,
        limit: request.limit,
        testersOnly: request.testers_only,
        filters: { updatedSince: request.updated_since, phone: request.phone, chatUserId: request.chat_user_id, username: request.username },
      }),
    addNote: (request) => addNote(scopeOf(request.caller), outbox, { tokenUuid: request.caller?.token_uuid ?? '' }, referenceOf(request.conversation), request.note, request.operation_id),
    markPending: (request) =>
      setInboxStatusByReference(scopeOf(request.caller), outbox, referenceOf(request.conversation), {
        target: 'pending',
        pendingReason: 'marked_pending',
        actor: { type: 'api_token', uuid: request.caller?.token_uuid ?? null },
      }),
    markResolved: (request) =>
      setInboxStatusByReference(scopeOf(request.caller), outbox, referenceOf(request.conversation), {
        target: 'resolved',
        actor: { type: 'api_token', uuid: request.caller?.token_uuid ?? null },
      }),
    listChannels: (request) => listChannels(scopeOf(request.caller)),
    getConversationTimeline: (request) =>
      getConversationTimeline(scopeOf(request.caller), cursorCodec, {
        conversationUuid: request.conversation_uuid,
        kinds: request.kinds,
        order: request.order === 'desc' ? 'desc' : 'asc',
        cursor: request.cursor,
        limit: request.limit,
      }),
    listEvents: (request) =>
      listEvents(scopeOf(request.caller), cursorCodec, {
        cursor: request.cursor,
        limit: pageSizeOf(request.limit),
        type: request.type,
        conversationUuid: request.conversation_uuid,
        createdSince: request.created_since,
      }),
    getEvent: (request) => getEvent(scopeOf(request.caller), request.id),
    listTemplates: (request) =>
      listTemplates(templates, scopeOf(request.caller), cursorCodec, {
        cursor: request.cursor,
        limit: pageSizeOf(request.limit),
        channel: request.channel,
        category: request.category,
        status: request.status,
      }),
    getTemplate: (request) => getTemplate(templates, scopeOf(request.caller), request.uuid),
    updateChannelLimits: (request) =>
      updateChannelLimits(channelLimits, scopeOf(request.caller), {
        publicKey: request.public_key,
        maxMessagesPerSecond: request.max_messages_per_second,
        messagingLimit: request.messaging_limit,
      }),
  };
}

function scopeOf(caller: Caller | undefined) {
  if (!caller?.business_id) throw new CatalogError('INVALID_REQUEST', 'caller.business_id is required.');
  return businessScope(caller.business_id);
}

function referenceOf(reference: ConversationReference | undefined): ConversationReference {
  if (!reference) throw new CatalogError('INVALID_REQUEST', 'conversation is required.');
  return reference;
}

/** The gateway validates 1..100; a direct caller that leaves it unset gets the default page. */
function pageSizeOf(limit: number): number {
  return limit > 0 ? Math.min(limit, 100) : 50;
}
