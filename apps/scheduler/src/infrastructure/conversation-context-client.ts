import { insecureChannel, promiseClient } from '@cmsg/platform';
import type { ConversationContextPort } from '@cmsg/scheduling-domain';
import { ConversationActionsServiceClient } from '@cmsg/proto';

export interface ConversationContextClient {
  port: ConversationContextPort;
  close(): void;
}

/** The conversations service resolves references and answers the window at the conversation's now. */
export function connectConversationContext(address: string): ConversationContextClient {
  const client = new ConversationActionsServiceClient(address, insecureChannel);
  const rpc = promiseClient(client, { deadlineMs: 10_000 });
  return { port: { getConversationContext: (request) => rpc.getConversationContext(request) }, close: () => client.close() };
}
