import { MONGODB_HEALTH_SERVICE, insecureChannel } from '@cmsg/platform';
import { ActionsServiceClient, ConversationActionsServiceClient, ConversationsServiceClient, FilesServiceClient, HealthClient, SchedulerServiceClient } from '@cmsg/proto';
import { FileContentForwarder } from '../file-transfers/file-content-forwarder';
import type { GatewayConfig } from '../config';
import type { Upstreams } from '../gateway-dependencies';
import { grpcHealthReadinessCheck } from '../readiness/grpc-health-readiness';
import type { ReadinessCheck } from '../readiness/readiness-check';
import { promiseClient } from '@cmsg/platform';

const UPSTREAM_DEADLINE_MS = 15_000;
const HEALTH_CHECK_DEADLINE_MS = 2000;

export interface UpstreamConnections {
  upstreams: Upstreams;
  /** The files service's content streams (uploads and downloads). */
  fileContent: FileContentForwarder;
  healthChecks: ReadinessCheck[];
  close(): void;
}

type UpstreamAddresses = Pick<GatewayConfig, 'CONVERSATIONS_GRPC_ADDRESS' | 'SCHEDULER_GRPC_ADDRESS' | 'ACTIONS_GRPC_ADDRESS'>;

/** gRPC clients of the services the gateway calls, and a grpc.health.v1 readiness check per service. */
export function connectUpstreams(addresses: UpstreamAddresses): UpstreamConnections {
  const conversations = new ConversationsServiceClient(addresses.CONVERSATIONS_GRPC_ADDRESS, insecureChannel);
  const conversationActions = new ConversationActionsServiceClient(addresses.CONVERSATIONS_GRPC_ADDRESS, insecureChannel);
  const actions = new ActionsServiceClient(addresses.ACTIONS_GRPC_ADDRESS, insecureChannel);
  const scheduler = new SchedulerServiceClient(addresses.SCHEDULER_GRPC_ADDRESS, insecureChannel);
  const files = new FilesServiceClient(addresses.CONVERSATIONS_GRPC_ADDRESS, insecureChannel);
  const healthClients = {
    'grpc:conversations': new HealthClient(addresses.CONVERSATIONS_GRPC_ADDRESS, insecureChannel),
    'grpc:scheduler': new HealthClient(addresses.SCHEDULER_GRPC_ADDRESS, insecureChannel),
    'grpc:actions': new HealthClient(addresses.ACTIONS_GRPC_ADDRESS, insecureChannel),
  };
  return {
    upstreams: {
      conversations: promiseClient(conversations, { deadlineMs: UPSTREAM_DEADLINE_MS }),
      // Sends wait for the chat platform; AI assistance for the AI provider (300 s budget).
      conversationActions: promiseClient(conversationActions, { deadlineMs: 60_000 }),
      actions: promiseClient(actions, { deadlineMs: 310_000 }),
      scheduler: promiseClient(scheduler, { deadlineMs: 15_000 }),
      files: promiseClient(files, { deadlineMs: UPSTREAM_DEADLINE_MS }),
    },
    fileContent: new FileContentForwarder(files),
    healthChecks: [
      ...Object.entries(healthClients).map(([name, client]) => grpcHealthReadinessCheck(name, promiseClient(client, { deadlineMs: HEALTH_CHECK_DEADLINE_MS }))),
      grpcHealthReadinessCheck('mongodb', promiseClient(healthClients['grpc:conversations'], { deadlineMs: HEALTH_CHECK_DEADLINE_MS }), MONGODB_HEALTH_SERVICE),
    ],
    close: () => {
      conversations.close();
      conversationActions.close();
      actions.close();
      scheduler.close();
      files.close();
      for (const client of Object.values(healthClients)) client.close();
    },
  };
}
