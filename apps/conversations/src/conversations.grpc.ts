import { businessScope } from '@cmsg/dal';
import {
  type AddNotePorts,
  type ContactPorts,
  type ContactErasurePorts,
  requestContactErasure,
  type EligibilityPorts,
  getContactEligibility,
  addNote,
  authenticateToken,
  defineContactAttribute,
  deleteContactAttribute,
  getContact,
  listContactAttributes,
  patchContact,
  searchContacts,
  upsertContact,
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
  type ConversationListPorts,
  type ConversationStatusPorts,
  type ConversationTimelinePorts,
  type ChannelListing,
  type EventReadPorts,
  type InboxStatusPorts,
  type TokenAuthenticationPorts,
  type TemplateDependencies,
  updateChannelLimits,
} from '@cmsg/conversations-domain';
import { CatalogError } from '@cmsg/errors';
import type { AsyncUnaryImplementation } from '@cmsg/platform/grpc';
import type { Caller, ConversationReference, ConversationsServiceServer } from '@cmsg/proto';

export interface ConversationsHandlerDependencies {
  tokens: TokenAuthenticationPorts;
  channels: ChannelListing;
  events: EventReadPorts;
  notes: AddNotePorts;
  inboxStatus: InboxStatusPorts;
  conversationList: ConversationListPorts;
  conversationStatus: ConversationStatusPorts;
  timeline: ConversationTimelinePorts;
  cursorCodec: ListCursorCodec;
  contacts: ContactPorts;
  templates: TemplateDependencies;
  channelLimits: ChannelLimitsStore;
  eligibility: EligibilityPorts;
  erasures: ContactErasurePorts;
  /** Runs the erasure's first pass now, beside the answer (the sweeper runs it otherwise). */
  eraseSoon: (businessId: string, contactId: string) => void;
}

/** Transport adapter: proto request -> use case -> proto response. No rules live here. */
export function conversationsHandlers(dependencies: ConversationsHandlerDependencies): AsyncUnaryImplementation<ConversationsServiceServer> {
  const { tokens, channels, events, notes, inboxStatus, conversationList, conversationStatus, timeline, cursorCodec, contacts, templates, channelLimits, eligibility, erasures, eraseSoon } = dependencies;
  return {
    authenticateToken: (request) => authenticateToken(tokens, request.token_sha256),
    getConversationStatus: (request) => getConversationStatus(conversationStatus, scopeOf(request.caller), referenceOf(request.conversation)),
    listConversations: (request) =>
      listConversations(conversationList, scopeOf(request.caller), cursorCodec, {
        cursor: request.cursor,
        limit: request.limit,
        order: request.order === 'asc' ? 'asc' : 'desc',
        filters: conversationListFiltersOf(request),
      }),
    listContacts: (request) =>
      listContacts(contacts, scopeOf(request.caller), cursorCodec, {
        cursor: request.cursor,
        limit: request.limit,
        testersOnly: request.testers_only,
        filters: { updatedSince: request.updated_since, phone: request.phone, chatUserId: request.chat_user_id, username: request.username },
      }),
    upsertContact: (request) =>
      upsertContact(contacts, scopeOf(request.caller), actorOf(request.caller), {
        channel: request.channel,
        phone: request.phone,
        chat_user_id: request.chat_user_id,
        external_id: request.external_id,
        first_name: request.first_name,
        last_name: request.last_name,
        email: request.email,
        language: request.language,
        attributes: request.attributes,
        consent: request.consent && { marketing: consentStatusOf(request.consent.marketing), utility: consentStatusOf(request.consent.utility) },
      }),
    getContact: (request) => getContact(contacts, scopeOf(request.caller), request.uuid),
    eraseContact: async (request) => {
      const scope = scopeOf(request.caller);
      const { contactId, conversationId } = await requestContactErasure(erasures, scope, request.uuid);
      eraseSoon(scope.businessId, contactId);
      return { contact_uuid: contactId, conversation_uuid: conversationId ?? undefined, status: 'erasing' };
    },
    getContactEligibility: async (request) => {
      const { window, can_send, reasons } = await getContactEligibility(eligibility, scopeOf(request.caller), request.uuid);
      return { window: { status: window.status, expires_at: window.expires_at ?? undefined }, can_send, reasons };
    },
    patchContact: (request) => patchContact(contacts, scopeOf(request.caller), actorOf(request.caller), request.uuid, request.patch ?? {}),
    searchContacts: (request) =>
      searchContacts(contacts, cursorCodec, scopeOf(request.caller), { filter: request.filter, cursor: request.cursor, limit: pageSizeOf(request.limit) }),
    defineContactAttribute: (request) => defineContactAttribute(contacts, scopeOf(request.caller), { key: request.key, type: request.type, options: request.options }),
    listContactAttributes: (request) => listContactAttributes(contacts, scopeOf(request.caller)),
    deleteContactAttribute: async (request) => {
      await deleteContactAttribute(contacts, scopeOf(request.caller), request.key);
      return {};
    },
    addNote: (request) => addNote(notes, scopeOf(request.caller), { tokenUuid: request.caller?.token_uuid ?? '' }, referenceOf(request.conversation), request.note, request.operation_id),
    markPending: (request) =>
      setInboxStatusByReference(inboxStatus, scopeOf(request.caller), referenceOf(request.conversation), {
        target: 'pending',
        pendingReason: 'marked_pending',
        actor: { type: 'api_token', uuid: request.caller?.token_uuid ?? null },
      }),
    markResolved: (request) =>
      setInboxStatusByReference(inboxStatus, scopeOf(request.caller), referenceOf(request.conversation), {
        target: 'resolved',
        actor: { type: 'api_token', uuid: request.caller?.token_uuid ?? null },
      }),
    listChannels: (request) => listChannels(channels, scopeOf(request.caller)),
    getConversationTimeline: (request) =>
      getConversationTimeline(timeline, scopeOf(request.caller), cursorCodec, {
        conversationUuid: request.conversation_uuid,
        kinds: request.kinds,
        order: request.order === 'desc' ? 'desc' : 'asc',
        cursor: request.cursor,
        limit: request.limit,
      }),
    listEvents: (request) =>
      listEvents(events, scopeOf(request.caller), cursorCodec, {
        cursor: request.cursor,
        limit: pageSizeOf(request.limit),
        type: request.type,
        conversationUuid: request.conversation_uuid,
        createdSince: request.created_since,
      }),
    getEvent: (request) => getEvent(events, scopeOf(request.caller), request.id),
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

function actorOf(caller: Caller | undefined): { tokenUuid: string } {
  return { tokenUuid: caller?.token_uuid ?? '' };
}

/** The statuses a caller may set (CONTRACT 10.2); anything else is refused, absent leaves the category alone. */
function consentStatusOf(status: string | undefined): 'opted_in' | 'opted_out' | undefined {
  if (status === undefined) return undefined;
  if (status === 'opted_in' || status === 'opted_out') return status;
  throw new CatalogError('INVALID_REQUEST', `consent status must be opted_in or opted_out, not ${JSON.stringify(status)}.`);
}

function referenceOf(reference: ConversationReference | undefined): ConversationReference {
  if (!reference) throw new CatalogError('INVALID_REQUEST', 'conversation is required.');
  return reference;
}

/** The gateway validates 1..100; a direct caller that leaves it unset gets the default page. */
function pageSizeOf(limit: number): number {
  return limit > 0 ? Math.min(limit, 100) : 50;
}
