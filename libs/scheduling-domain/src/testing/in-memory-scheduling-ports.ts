import { type AiRunCommand, SCHEDULE_HISTORY_LIMIT, type ScheduledMessageCommand } from '@cmsg/conversation-commands';
import {
  type BusinessScope,
  type ContactSnapshot,
  type InsertPendingResult,
  type LastMessage,
  type NewContact,
  type NewConversation,
  type NewMessage,
  type OutboxCollection,
  type OutboxEntry,
  type ScheduledMessageEntity,
  businessScope,
  pendingConversationKey,
} from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import type { ConversationContext, ConversationRequest } from '@cmsg/proto';
import type { ConversationStore, SchedulingPorts } from '../ports';

const WINDOW_MS = 24 * 60 * 60 * 1000;

export interface StoredBusiness {
  _id: string;
  time_zone: string;
  tester_clock_offset_ms: number;
}

export interface StoredChannel {
  _id: string;
  business_id: string;
  public_key: string;
  name: string;
}

/** A conversation as the specs seed and read it; what the context port answers is derived from it. */
export type StoredConversation = NewConversation & {
  business_id: string;
  ai_employee_id: string | null;
  is_tester: boolean;
  inbox_status: string;
  contact: ContactSnapshot | null;
  event_sequence: number;
  unread_count: number;
  last_inbound_at: Date | null;
  last_inbound_message_id: string | null;
  recent_inbound_message_ids: string[];
  last_message: LastMessage | null;
  outbox: OutboxEntry[];
};

export type StoredContact = NewContact & { business_id: string };
export type StoredMessage = NewMessage & { business_id: string };
export type StoredSchedule = ScheduledMessageEntity;

/** An object of a business a schedule may name (AI employee, quick reply, confirmed upload). */
export interface OwnedObject {
  _id: string;
  business_id: string;
}

export interface StoredTemplate extends OwnedObject {
  name: string;
  status: string;
  variable_count: number;
}

export interface RecordedEvent {
  collection: OutboxCollection;
  businessId: string;
  documentId: string;
  entry: OutboxEntry;
}

export interface PublishedCommand {
  key: string;
  command: ScheduledMessageCommand | AiRunCommand;
}

/**
 * The data of every business the scheduling use cases read and write, in memory, behind the same
 * ports the scheduler wires to libs/dal: each read is scoped by the business as the repositories'
 * are, each write keeps their guarantees (one pending schedule per conversation, global ids,
 * cancellations only from pending). The clock is the spec's and moves by hand; ids are sequential
 * UUIDs. The conversation context answers from the stored conversations the way the conversations
 * service does: resolved by uuid within the caller's business, its now virtual for a tester
 * conversation, its window open for 24 h after the last customer message.
 */
export class InMemorySchedulingWorld {
  readonly businesses: StoredBusiness[] = [];
  readonly channels: StoredChannel[] = [];
  readonly contacts: StoredContact[] = [];
  readonly conversations: StoredConversation[] = [];
  readonly messages: StoredMessage[] = [];
  readonly schedules: StoredSchedule[] = [];
  readonly aiEmployees: OwnedObject[] = [];
  readonly quickReplies: OwnedObject[] = [];
  readonly templates: StoredTemplate[] = [];
  readonly confirmedFiles: OwnedObject[] = [];
  /** Events recorded through the outbox recorder, in order. */
  readonly recorded: RecordedEvent[] = [];
  /** Commands produced on the conversation command stream, in order. */
  readonly published: PublishedCommand[] = [];
  /** Requests the conversation context port received. */
  readonly contextRequests: ConversationRequest[] = [];
  now: Date;
  private issuedIds = 0;
  private readonly refusals: CatalogError[] = [];

  constructor(now = '2026-03-02T12:00:00Z') {
    this.now = new Date(now);
  }

  advance(ms: number): void {
    this.now = new Date(this.now.getTime() + ms);
  }

  /** The next id the world hands out (sequential, UUID-shaped). */
  newId(): string {
    this.issuedIds += 1;
    return `00000000-0000-4000-8000-${String(this.issuedIds).padStart(12, '0')}`;
  }

  /** The conversation context port answers the next request with this error (a reference the conversations service refuses). */
  refuseNextContext(error: CatalogError): void {
    this.refusals.push(error);
  }

  scheduleById(id: string): StoredSchedule | undefined {
    return this.schedules.find((schedule) => schedule._id === id);
  }

  conversationById(id: string): StoredConversation | undefined {
    return this.conversations.find((conversation) => conversation._id === id);
  }

  /** The ports the app builds from libs/dal, the gRPC client and Kafka; fresh objects over this world. */
  ports(): SchedulingPorts {
    return {
      conversationContext: { getConversationContext: async (request) => this.conversationContext(request) },
      publisher: {
        submit: async (key, command) => void this.published.push({ key, command: structuredClone(command) }),
        submitMany: async (entries) => void this.published.push(...entries.map((entry) => ({ key: entry.conversationId, command: structuredClone(entry.command) }))),
      },
      schedules: {
        idTakenInAnyBusiness: async (id) => this.scheduleById(id) !== undefined,
        find: async (scope, id) => found(this.schedules.find((schedule) => ofScope(scope, schedule) && schedule._id === id)),
        pendingOfConversation: async (scope, conversationId) =>
          found(this.schedules.find((schedule) => schedule.pending_conversation_key === pendingConversationKey(scope, conversationId))),
        insertPending: async (scope, schedule) => this.insertPending(scope, schedule),
        cancelPending: async (scope, id, entry, event) => {
          const schedule = this.schedules.find((candidate) => ofScope(scope, candidate) && candidate._id === id && candidate.status === 'pending');
          if (!schedule) return null;
          schedule.status = 'cancelled';
          schedule.updated_at = entry.at;
          delete schedule.pending_conversation_key;
          delete schedule.pending_id;
          schedule.history = [...schedule.history, entry].slice(-SCHEDULE_HISTORY_LIMIT);
          schedule.outbox = [...(schedule.outbox ?? []), event];
          return copy(schedule);
        },
      },
      businesses: {
        findById: async (scope) => found(this.businesses.find((business) => business._id === scope.businessId)),
        advanceTesterClock: async (scope, advanceMs) => {
          const business = this.businesses.find((candidate) => candidate._id === scope.businessId);
          if (!business) return null;
          business.tester_clock_offset_ms += advanceMs;
          return business.tester_clock_offset_ms;
        },
      },
      conversations: this.conversationStore(),
      messages: {
        insert: async (scope, message) => {
          if (this.messages.some((stored) => stored._id === message._id)) throw new Error(`duplicate message id ${message._id}`);
          this.messages.push(copy({ ...message, business_id: scope.businessId }));
        },
        findRecentOutbound: async (scope, conversationId, limit) =>
          this.messages
            .filter((message) => ofScope(scope, message) && message.conversation_id === conversationId && !message.is_from_customer)
            .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a._id < b._id ? 1 : -1))
            .slice(0, limit)
            .map((message) => ({ content_type: 'text', status: 'received', author: null, body: '', ...copy(message) })),
      },
      contacts: {
        insertIfAbsent: async (scope, contact) => {
          if (this.contacts.some((stored) => stored._id === contact._id)) return false;
          this.contacts.push(copy({ ...contact, business_id: scope.businessId }));
          return true;
        },
      },
      channels: {
        findByPublicKey: async (scope, publicKey) => found(this.channels.find((channel) => ofScope(scope, channel) && channel.public_key === publicKey)),
        listByName: async (scope, limit) =>
          this.channels
            .filter((channel) => ofScope(scope, channel))
            .sort((a, b) => a.name.localeCompare(b.name) || a._id.localeCompare(b._id))
            .slice(0, limit)
            .map((channel) => copy(channel)),
      },
      aiEmployees: { exists: async (scope, id) => this.aiEmployees.some((employee) => ofScope(scope, employee) && employee._id === id) },
      quickReplies: { exists: async (scope, id) => this.quickReplies.some((reply) => ofScope(scope, reply) && reply._id === id) },
      templates: { findById: async (scope, id) => found(this.templates.find((template) => ofScope(scope, template) && template._id === id)) },
      files: { isConfirmed: async (scope, fileUuid) => this.confirmedFiles.some((file) => ofScope(scope, file) && file._id === fileUuid) },
      events: {
        recordQuietly: async (collection, scope, documentId, entries) => {
          for (const entry of entries) this.recorded.push({ collection, businessId: scope.businessId, documentId, entry: copy(entry) });
        },
      },
      clock: { now: () => new Date(this.now) },
      ids: { newId: () => this.newId() },
    };
  }

  /** The conversation's own now: the business's virtual clock for a tester conversation. */
  conversationNow(conversation: StoredConversation): Date {
    const offset = conversation.is_tester ? (this.businesses.find((business) => business._id === conversation.business_id)?.tester_clock_offset_ms ?? 0) : 0;
    return new Date(this.now.getTime() + offset);
  }

  private conversationContext(request: ConversationRequest): ConversationContext {
    this.contextRequests.push(copy(request));
    const refusal = this.refusals.shift();
    if (refusal) throw refusal;
    const conversation = this.conversations.find((candidate) => candidate.business_id === request.caller?.business_id && candidate._id === request.conversation?.uuid);
    if (!conversation) throw new CatalogError('CONVERSATION_NOT_FOUND');
    const now = this.conversationNow(conversation);
    const open = conversation.last_inbound_at !== null && now.getTime() - conversation.last_inbound_at.getTime() < WINDOW_MS;
    return {
      uuid: conversation._id,
      contact_uuid: conversation.contact_id,
      is_tester: conversation.is_tester,
      window_status: open ? 'open' : 'closed',
      ai_employee_uuid: conversation.ai_employee_id ?? undefined,
      inbox_status: conversation.inbox_status,
      media_awaiting_transcription: 0,
      vision_wallet_tokens: 0,
      now: now.toISOString(),
      pending_schedule_uuid: this.schedules.find((schedule) => schedule.pending_conversation_key === pendingConversationKey(businessScope(conversation.business_id), conversation._id))?._id,
      contact_phone: conversation.contact?.phone ?? undefined,
      last_inbound_message_uuid: conversation.last_inbound_message_id ?? undefined,
    };
  }

  private insertPending(scope: BusinessScope, schedule: Omit<ScheduledMessageEntity, 'pending_conversation_key' | 'pending_id' | 'business_id'>): InsertPendingResult {
    // The unique _id is checked first, as MongoDB does.
    if (this.scheduleById(schedule._id)) return 'id_taken';
    const key = pendingConversationKey(scope, schedule.conversation_id);
    if (this.schedules.some((stored) => stored.pending_conversation_key === key)) return 'conversation_has_pending';
    this.schedules.push(copy({ ...schedule, business_id: scope.businessId, pending_conversation_key: key, pending_id: schedule._id }));
    return 'inserted';
  }

  private conversationStore(): ConversationStore {
    const scoped = (scope: BusinessScope, id: string) => this.conversations.find((conversation) => ofScope(scope, conversation) && conversation._id === id);
    return {
      findById: async (scope, id) => found(scoped(scope, id)),
      createIfAbsent: async (scope, conversation) => {
        const taken = this.conversations.some((stored) => stored._id === conversation._id || (ofScope(scope, stored) && stored.contact_id === conversation.contact_id));
        if (taken) return false;
        this.conversations.push(copy({ ...blankConversation(scope.businessId), ...conversation, business_id: scope.businessId }) as StoredConversation);
        return true;
      },
      applyInboundMessage: async (scope, id, inbound) => {
        const conversation = scoped(scope, id);
        if (!conversation || conversation.recent_inbound_message_ids.includes(inbound.messageId)) return null;
        conversation.last_inbound_message_id = inbound.messageId;
        conversation.updated_at = inbound.now;
        if (!conversation.last_inbound_at || conversation.last_inbound_at < inbound.sentAt) conversation.last_inbound_at = inbound.sentAt;
        conversation.unread_count += 1;
        conversation.event_sequence += 1;
        conversation.recent_inbound_message_ids.push(inbound.messageId);
        conversation.outbox.push(inbound.event);
        return copy(conversation);
      },
      showLastMessage: async (scope, id, message, now) => {
        const conversation = scoped(scope, id);
        if (!conversation || conversation.last_message?.uuid === message.uuid) return;
        if (conversation.last_message && conversation.last_message.created_at > message.created_at) return;
        conversation.last_message = copy(message);
        conversation.sort_at = message.created_at;
        if (!message.is_from_customer) conversation.unread_count = 0;
        conversation.updated_at = now;
      },
    };
  }
}

function blankConversation(businessId: string): Omit<StoredConversation, '_id' | 'contact_id' | 'channel_id' | 'sort_at' | 'created_at' | 'updated_at'> {
  return {
    business_id: businessId,
    ai_employee_id: null,
    is_tester: false,
    inbox_status: 'resolved',
    contact: null,
    event_sequence: 0,
    unread_count: 0,
    last_inbound_at: null,
    last_inbound_message_id: null,
    recent_inbound_message_ids: [],
    last_message: null,
    outbox: [],
  };
}

const ofScope = (scope: BusinessScope, record: { business_id: string }) => record.business_id === scope.businessId;

/** Answers and stores copies, as a database does: nobody holds a reference into the world. */
const copy = <T>(value: T): T => structuredClone(value);

/** A copy of what a lookup found, null when it found nothing. */
const found = <T>(value: T | undefined): T | null => (value === undefined ? null : structuredClone(value));
