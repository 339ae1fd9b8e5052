import { type GrpcClients, MONGODB_HEALTH_SERVICE } from '@cmsg/platform/grpc';
import {
  ActionsServiceClient,
  BroadcastsServiceClient,
  ConversationActionsServiceClient,
  ConversationsServiceClient,
  FilesServiceClient,
  HealthClient,
  SchedulerServiceClient,
  WebhookEndpointsServiceClient,
} from '@cmsg/proto';
import { FileContentForwarder } from '../file-transfers/file-content-forwarder';
import type { GatewayConfig } from '../config';
import type { Upstreams } from '../gateway-dependencies';
import { grpcHealthReadinessCheck } from '../readiness/grpc-health-readiness';
import type { ReadinessCheck } from '../readiness/readiness-check';

const UPSTREAM_DEADLINE_MS = 15_000;
const HEALTH_CHECK_DEADLINE_MS = 2000;

export interface UpstreamConnections {
  upstreams: Upstreams;
  /** The files service's content streams (uploads and downloads). */
  fileContent: FileContentForwarder;
  healthChecks: ReadinessCheck[];
}

type UpstreamAddresses = Pick<GatewayConfig, 'CONVERSATIONS_GRPC_ADDRESS' | 'SCHEDULER_GRPC_ADDRESS' | 'ACTIONS_GRPC_ADDRESS'>;

/** gRPC clients of the services the gateway calls, and a grpc.health.v1 readiness check per service. */
export function connectUpstreams(clients: GrpcClients, addresses: UpstreamAddresses): UpstreamConnections {
  const files = clients.connect(FilesServiceClient, { address: addresses.CONVERSATIONS_GRPC_ADDRESS, deadlineMs: UPSTREAM_DEADLINE_MS });
  const health = (address: string) => clients.connect(HealthClient, { address, deadlineMs: HEALTH_CHECK_DEADLINE_MS }).rpc;
  const conversationsHealth = health(addresses.CONVERSATIONS_GRPC_ADDRESS);
  const healthChecks = [
    grpcHealthReadinessCheck('grpc:conversations', conversationsHealth),
    grpcHealthReadinessCheck('grpc:scheduler', health(addresses.SCHEDULER_GRPC_ADDRESS)),
    grpcHealthReadinessCheck('grpc:actions', health(addresses.ACTIONS_GRPC_ADDRESS)),
    // The gateway has no MongoDB connection of its own: the conversations service answers for it.
    grpcHealthReadinessCheck('mongodb', conversationsHealth, MONGODB_HEALTH_SERVICE),
  ];
  return {
    upstreams: {
      conversations: clients.connect(ConversationsServiceClient, { address: addresses.CONVERSATIONS_GRPC_ADDRESS, deadlineMs: UPSTREAM_DEADLINE_MS }).rpc,
      // Sends wait for the chat platform.
      conversationActions: clients.connect(ConversationActionsServiceClient, { address: addresses.CONVERSATIONS_GRPC_ADDRESS, deadlineMs: 60_000 }).rpc,
      // AI assistance waits for the AI provider (300 s budget).
      actions: clients.connect(ActionsServiceClient, { address: addresses.ACTIONS_GRPC_ADDRESS, deadlineMs: UPSTREAM_DEADLINE_MS, methodDeadlinesMs: { aiAssistance: 310_000 } }).rpc,
      scheduler: clients.connect(SchedulerServiceClient, { address: addresses.SCHEDULER_GRPC_ADDRESS, deadlineMs: UPSTREAM_DEADLINE_MS }).rpc,
      files: files.rpc,
      webhookEndpoints: clients.connect(WebhookEndpointsServiceClient, { address: addresses.CONVERSATIONS_GRPC_ADDRESS, deadlineMs: UPSTREAM_DEADLINE_MS }).rpc,
      broadcasts: clients.connect(BroadcastsServiceClient, { address: addresses.CONVERSATIONS_GRPC_ADDRESS, deadlineMs: UPSTREAM_DEADLINE_MS }).rpc,
    },
    fileContent: new FileContentForwarder(files),
    healthChecks,
  };
}
