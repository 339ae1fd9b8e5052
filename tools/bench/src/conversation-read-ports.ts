import type { ConversationListPorts, ConversationStatusPorts, ConversationTimelinePorts } from '@cmsg/conversations-domain';
import { AiEmployeeRepository, BusinessRepository, ChannelRepository, ContactRepository, ConversationRepository, MailboxRepository, MessageRepository, TagRepository, TimelineEventRepository } from '@cmsg/dal';

/** The read use cases the bare servers and benches call, over the data layer as the conversations service wires them. */
export interface ConversationReadPorts {
  list: ConversationListPorts;
  status: ConversationStatusPorts;
  timeline: ConversationTimelinePorts;
}

export function conversationReadPorts(): ConversationReadPorts {
  const conversations = new ConversationRepository();
  const businesses = new BusinessRepository();
  const aiEmployees = new AiEmployeeRepository();
  const references = { tags: new TagRepository(), mailboxes: new MailboxRepository(), aiEmployees };
  return {
    list: { conversations, businesses, references },
    status: { lookup: { conversations, contacts: new ContactRepository(), channels: new ChannelRepository() }, businesses, references },
    timeline: { conversations, aiEmployees, messages: new MessageRepository(), timelineEvents: new TimelineEventRepository() },
  };
}
