import type { EligibilityPorts } from '@cmsg/conversations-domain';
import { ContactRepository, ConversationRepository, MessageRepository } from '@cmsg/dal';

/** Eligibility's reads over the data layer (built once, in main.ts). */
export function eligibilityPorts(): EligibilityPorts {
  const conversations = new ConversationRepository();
  const messages = new MessageRepository();
  return {
    contacts: new ContactRepository(),
    conversationOf: async (scope, contactId) => {
      const conversation = await conversations.findByContactId(scope, contactId);
      return conversation ? { id: conversation._id, lastInboundAt: conversation.last_inbound_at ?? null } : null;
    },
    newestOutbound: async (scope, conversationId) => {
      const [message] = await messages.findRecentOutbound(scope, conversationId, 1);
      return message ? { status: message.status, errorCode: message.error?.code ?? null } : null;
    },
    newestOutboundFailedSince: async (scope, conversationId, code, since) => {
      const message = await messages.findNewestOutboundFailedSince(scope, conversationId, code, since);
      return message ? { createdAt: message.created_at } : null;
    },
    clock: () => Date.now(),
  };
}
