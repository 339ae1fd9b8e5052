import { randomUUID } from 'node:crypto';
import type {
  AddNotePorts,
  AiAssignmentPorts,
  AssignMailboxPorts,
  ConversationLookup,
  ChangeTagsPorts,
  ConversationContextPorts,
  ConversationListPorts,
  ConversationStatusPorts,
  ConversationTimelinePorts,
  InboxStatusPorts,
  RecentTimelinePorts,
  SendMessagePorts,
} from '@cmsg/conversations-domain';
import {
  AiEmployeeRepository,
  BusinessRepository,
  type BusinessScope,
  type ChannelRepository,
  ContactRepository,
  ConversationRepository,
  MailboxCategoryRepository,
  MailboxRepository,
  MessageRepository,
  PaymentRepository,
  QuickReplyRepository,
  ScheduledMessageRepository,
  TagRepository,
  TemplateRepository,
  TimelineEventRepository,
  DefaultScheduledTemplates,
} from '@cmsg/dal';
import { type OutboxRecorder, messageAuthors } from '@cmsg/events';
import { sharedPerTurn } from '@cmsg/platform';

/** The ports of the conversation use cases (reads, actions, sends), each use case's own. */
export interface ConversationUseCasePorts {
  lookup: ConversationLookup;
  list: ConversationListPorts;
  status: ConversationStatusPorts;
  timeline: ConversationTimelinePorts;
  recentTimeline: RecentTimelinePorts;
  context: ConversationContextPorts;
  inboxStatus: InboxStatusPorts;
  aiAssignment: AiAssignmentPorts;
  tags: ChangeTagsPorts;
  mailboxes: AssignMailboxPorts;
  notes: AddNotePorts;
  /** The stored side of SendMessage (the sender, files and lease come from main.ts). */
  sends: SendMessagePorts;
}

/** The conversation use cases' ports over the data layer: one repository of each collection, built once in main.ts. */
export function conversationUseCasePorts(outbox: OutboxRecorder, channels: ChannelRepository): ConversationUseCasePorts {
  const conversations = new ConversationRepository();
  const lookup = { conversations, contacts: new ContactRepository(), channels };
  const businesses = new BusinessRepository();
  const aiEmployees = new AiEmployeeRepository();
  const tags = new TagRepository();
  const mailboxes = new MailboxRepository();
  const schedules = new ScheduledMessageRepository();
  const defaultTemplates = new DefaultScheduledTemplates();
  const timelineStores = { messages: new MessageRepository(), timelineEvents: new TimelineEventRepository() };
  const references = { tags, mailboxes, aiEmployees };
  const clock = () => new Date();
  const inboxStatus = { lookup, inboxStatus: conversations, outbox, clock };
  return {
    lookup,
    list: { conversations, businesses, references },
    status: { lookup, businesses, references },
    timeline: { conversations, aiEmployees, ...timelineStores },
    recentTimeline: { lookup, ...timelineStores },
    context: { lookup, businesses, schedules },
    inboxStatus,
    aiAssignment: { ...inboxStatus, aiEmployees, owners: conversations, schedules, defaultScheduledTemplate: (scope, channelId) => defaultTemplates.idOf(scope, channelId) },
    tags: { lookup, tags, conversationTags: conversations, outbox, clock },
    mailboxes: { lookup, mailboxes: { mailboxes, categories: new MailboxCategoryRepository() }, conversationMailbox: conversations, outbox, clock },
    notes: { lookup, sequences: conversations, notes: timelineStores.timelineEvents, outbox, clock, ids: { random: randomUUID } },
    sends: {
      lookup,
      businesses,
      // The sends of one turn on one channel share its read (sharedPerTurn: made after each of them began).
      channels: { findById: sharedPerTurn((scope: BusinessScope, id: string) => `${scope.businessId}\u0000${id}`, (scope, id) => channels.findById(scope, id)) },
      messages: timelineStores.messages,
      conversationMessages: conversations,
      authors: messageAuthors(aiEmployees),
      templates: new TemplateRepository(),
      quickReplies: new QuickReplyRepository(),
      payments: new PaymentRepository(),
    },
  };
}
