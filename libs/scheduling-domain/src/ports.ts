import type { AiRunCommand, ScheduledMessageCommand } from '@cmsg/conversation-commands';
import type {
  AiEmployeeRepository,
  BusinessEntity,
  BusinessScope,
  ChannelEntity,
  ContactRepository,
  ConversationEntity,
  InboundMessageApplied,
  LastMessage,
  MessageEntity,
  NewConversation,
  NewMessage,
  QuickReplyRepository,
  ScheduledMessageRepository,
  TemplateEntity,
} from '@cmsg/dal';
import type { OutboxRecorder } from '@cmsg/events';
import type { ConversationContext, ConversationRequest } from '@cmsg/proto';
import { randomUUID } from 'node:crypto';

/**
 * The conversations service's view of a conversation (ConversationActionsService.GetConversationContext):
 * reference resolution with its 404/409 answers, the window and now at the conversation's own
 * clock (virtual for testers). Failures arrive as catalog errors.
 */
export interface ConversationContextPort {
  getConversationContext(request: ConversationRequest): Promise<ConversationContext>;
}

/** The per-conversation command stream (topic conversation-commands, key = conversation uuid). */
export interface ConversationCommandPublisher {
  submit(conversationUuid: string, command: ScheduledMessageCommand | AiRunCommand): Promise<void>;
  /** Many conversations' commands in one request (a firing pass). */
  submitMany(entries: readonly { conversationId: string; command: ScheduledMessageCommand }[]): Promise<void>;
}

/** Whether a file was uploaded and confirmed for module api_messages in this business. */
export interface ConfirmedFileLookup {
  isConfirmed(scope: BusinessScope, fileUuid: string): Promise<boolean>;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Ids of what the use cases create (schedules, tester contacts and conversations, messages, AI runs). */
export interface IdGenerator {
  newId(): string;
}

export const randomIds: IdGenerator = { newId: () => randomUUID() };

/** scheduled_messages as the use cases read and write them (ScheduledMessageRepository in the app). */
export type ScheduleStore = Pick<ScheduledMessageRepository, 'idTakenInAnyBusiness' | 'find' | 'pendingOfConversation' | 'insertPending' | 'cancelPending'>;

/** The caller's business: the zone schedule times are read in, and its tester clock (BusinessRepository). */
export interface BusinessStore {
  findById(scope: BusinessScope): Promise<Pick<BusinessEntity, 'time_zone'> | null>;
  /** Adds to the business's tester clock offset in one update; the new offset, null when the business is gone. */
  advanceTesterClock(scope: BusinessScope, advanceMs: number): Promise<number | null>;
}

/** The business's AI employees, quick replies and templates a schedule may name (their repositories). */
export type AiEmployeeDirectory = Pick<AiEmployeeRepository, 'exists'>;
export type QuickReplyDirectory = Pick<QuickReplyRepository, 'exists'>;
export interface TemplateDirectory {
  findById(scope: BusinessScope, id: string): Promise<Pick<TemplateEntity, '_id' | 'name' | 'status' | 'variable_count'> | null>;
}

/** conversations as the scheduling and tester use cases read and write them (ConversationRepository). */
export interface ConversationStore {
  findById(scope: BusinessScope, id: string): Promise<Pick<ConversationEntity, 'ai_employee_id' | 'is_tester' | 'contact'> | null>;
  createIfAbsent(scope: BusinessScope, conversation: NewConversation): Promise<boolean>;
  applyInboundMessage(scope: BusinessScope, id: string, inbound: InboundMessageApplied): Promise<Pick<ConversationEntity, 'event_sequence'> | null>;
  showLastMessage(scope: BusinessScope, id: string, message: LastMessage, now: Date): Promise<void>;
}

/** messages of tester conversations (MessageRepository). */
export interface MessageStore {
  insert(scope: BusinessScope, message: NewMessage): Promise<void>;
  findRecentOutbound(scope: BusinessScope, conversationId: string, limit: number): Promise<Pick<MessageEntity, '_id' | 'body' | 'content_type' | 'status' | 'author' | 'created_at'>[]>;
}

/** contacts (ContactRepository): tester contacts are only created here. */
export type ContactStore = Pick<ContactRepository, 'insertIfAbsent'>;

/** The business's channels, for a tester conversation (ChannelRepository). */
export interface ChannelStore {
  findByPublicKey(scope: BusinessScope, publicKey: string): Promise<Pick<ChannelEntity, '_id' | 'public_key'> | null>;
  listByName(scope: BusinessScope, limit?: number): Promise<Pick<ChannelEntity, '_id' | 'public_key'>[]>;
}

/**
 * Everything the scheduling use cases talk to, built once by the app's composition root
 * (apps/scheduler/src/main.ts); each use case takes the part it uses.
 */
export interface SchedulingPorts {
  conversationContext: ConversationContextPort;
  publisher: ConversationCommandPublisher;
  schedules: ScheduleStore;
  businesses: BusinessStore;
  conversations: ConversationStore;
  messages: MessageStore;
  contacts: ContactStore;
  channels: ChannelStore;
  aiEmployees: AiEmployeeDirectory;
  quickReplies: QuickReplyDirectory;
  templates: TemplateDirectory;
  files: ConfirmedFileLookup;
  events: OutboxRecorder;
  clock: Clock;
  ids: IdGenerator;
}
