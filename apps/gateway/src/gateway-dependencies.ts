import type { Logger } from '@cmsg/platform';
import type {
  ActionsServiceClient,
  BroadcastsServiceClient,
  ConversationActionsServiceClient,
  ConversationsServiceClient,
  FilesServiceClient,
  PromiseClient,
  SchedulerServiceClient,
  WebhookEndpointsServiceClient,
} from '@cmsg/proto';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { GatewayConfig } from './config';
import type { IdempotencyStore } from './idempotency/idempotency-store';
import type { ReadinessCheck } from './readiness/readiness-check';
import type { FileContentForwarder } from './file-transfers/file-content-forwarder';
import type { ChatWebhookDependencies } from './webhooks/chat-webhook.routes';
import type { ApiReferenceDependencies } from './api-reference/api-reference.routes';

/** The gRPC services business routes call. */
export interface Upstreams {
  conversations: PromiseClient<ConversationsServiceClient>;
  conversationActions: PromiseClient<ConversationActionsServiceClient>;
  actions: PromiseClient<ActionsServiceClient>;
  scheduler: PromiseClient<SchedulerServiceClient>;
  files: PromiseClient<FilesServiceClient>;
  webhookEndpoints: PromiseClient<WebhookEndpointsServiceClient>;
  broadcasts: PromiseClient<BroadcastsServiceClient>;
}

/** Everything createGatewayApp needs from the outside; main.ts wires real ones, tests wire doubles. */
export interface GatewayDependencies {
  config: Pick<GatewayConfig, 'TOKEN_CACHE_TTL_MS'>;
  logger: Logger;
  upstreams: Upstreams;
  /** Points = requests per window per token uuid (keyPrefix 'rl:token'). */
  rateLimiter: RateLimiterAbstract;
  idempotencyStore: IdempotencyStore;
  readinessChecks: readonly ReadinessCheck[];
  /** POST/GET /webhooks/chat: the secrets and where verified events go. */
  chatWebhooks: Omit<ChatWebhookDependencies, 'logger'>;
  /** PUT /v1/uploads/:token and GET /v1/downloads/:token, streamed to the files service. */
  fileContent: FileContentForwarder;
  /** GET /docs: where the guides and the page's own assets are on disk. */
  apiReference: ApiReferenceDependencies;
}
