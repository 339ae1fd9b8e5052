import { BusinessRepository, ChannelRepository, ContactErasureRepository, ContactRepository, ConversationRepository, FileRepository, MessageRepository } from '@cmsg/dal';

/** The repositories ingestion reads and writes through. */
export const repositories = {
  businesses: new BusinessRepository(),
  channels: new ChannelRepository(),
  contacts: new ContactRepository(),
  contactErasures: new ContactErasureRepository(),
  conversations: new ConversationRepository(),
  files: new FileRepository(),
  messages: new MessageRepository(),
};
