import {
  AiEmployeeRepository,
  ApiTokenRepository,
  BusinessRepository,
  ChannelRepository,
  ContactRepository,
  ConversationRepository,
  MailboxCategoryRepository,
  MailboxRepository,
  MessageRepository,
  PaymentRepository,
  QuickReplyRepository,
  TagRepository,
  TemplateRepository,
  TimelineEventRepository,
} from '@cmsg/dal';

/** The repositories the conversation use cases read and write through (stateless, one of each per process). */
export const repositories = {
  aiEmployees: new AiEmployeeRepository(),
  apiTokens: new ApiTokenRepository(),
  businesses: new BusinessRepository(),
  channels: new ChannelRepository(),
  contacts: new ContactRepository(),
  conversations: new ConversationRepository(),
  mailboxCategories: new MailboxCategoryRepository(),
  mailboxes: new MailboxRepository(),
  messages: new MessageRepository(),
  payments: new PaymentRepository(),
  quickReplies: new QuickReplyRepository(),
  tags: new TagRepository(),
  templates: new TemplateRepository(),
  timelineEvents: new TimelineEventRepository(),
};
