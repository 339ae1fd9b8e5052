import type { GrpcClients } from '@cmsg/platform/grpc';
import type { ConversationContextPort } from '@cmsg/scheduling-domain';
import { ConversationActionsServiceClient } from '@cmsg/proto';

/** The conversations service resolves references and answers the window at the conversation's now. */
export function connectConversationContext(clients: GrpcClients, address: string): ConversationContextPort {
  const { rpc } = clients.connect(ConversationActionsServiceClient, { address, deadlineMs: 10_000 });
  return { getConversationContext: (request) => rpc.getConversationContext(request) };
}
