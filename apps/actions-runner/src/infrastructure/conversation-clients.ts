import type { ConversationServices } from '@cmsg/actions-domain';
import type { GrpcClients } from '@cmsg/platform/grpc';
import { ConversationActionsServiceClient, ConversationsServiceClient } from '@cmsg/proto';

/** gRPC clients of the conversations service; sends wait for the chat platform, hence the longer deadline. */
export function connectConversationServices(clients: GrpcClients, address: string): ConversationServices {
  return {
    conversations: clients.connect(ConversationsServiceClient, { address, deadlineMs: 15_000 }).rpc,
    actions: clients.connect(ConversationActionsServiceClient, { address, deadlineMs: 60_000 }).rpc,
  };
}
