import type { Logger } from '@cmsg/platform';
import type { ActionsServiceClient, ConversationActionsServiceClient, ConversationsServiceClient } from '@cmsg/proto';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { GatewayConfig } from './config';
import type { IdempotencyStore } from './idempotency/idempotency-store';
import type { PromiseClient } from '@cmsg/platform';
import type { ReadinessCheck } from './readiness/readiness-check';

/** The gRPC services business routes call. */
export interface Upstreams {
  conversations: PromiseClient<ConversationsServiceClient>;
  conversationActions: PromiseClient<ConversationActionsServiceClient>;
  actions: PromiseClient<ActionsServiceClient>;
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
}
