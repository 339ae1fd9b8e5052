import type { ConversationServices } from '@cmsg/actions-domain';
import { insecureChannel, promiseClient } from '@cmsg/platform';
import { ConversationActionsServiceClient, ConversationsServiceClient } from '@cmsg/proto';

export interface ConversationClients {
  services: ConversationServices;
  close(): void;
}

/** gRPC clients of the conversations service; sends wait for the chat platform, hence the longer deadline. */
export function connectConversationServices(address: string): ConversationClients {
  const conversations = new ConversationsServiceClient(address, insecureChannel);
  const actions = new ConversationActionsServiceClient(address, insecureChannel);
  return {
    services: {
      conversations: promiseClient(conversations, { deadlineMs: 15_000 }),
      actions: promiseClient(actions, { deadlineMs: 60_000 }),
    },
    close: () => {
      conversations.close();
      actions.close();
    },
  };
}
