import { createLogger, currentRequestContext } from '@cmsg/platform';
import {
  ActionsServiceClient,
  BroadcastsServiceClient,
  ConversationActionsServiceClient,
  ConversationsServiceClient,
  FilesServiceClient,
  WebhookEndpointsServiceClient,
  SchedulerServiceClient,
  createServiceClient,
} from '@cmsg/proto';
import type { Express } from 'express';
import type { Server } from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { createGatewayApp } from '../app';
import type { IdempotencyStore } from '../idempotency/idempotency-store';
import { closeHttpServer, listen } from '../infrastructure/http-server';
import { createMemoryTokenRateLimiter } from '../infrastructure/token-rate-limiter';
import type { ReadinessCheck } from '../readiness/readiness-check';
import { FakeBroadcastsService } from './fake-broadcasts-service';
import { FakeConversationsService, TEST_TOKEN } from './fake-conversations-service';
import { InMemoryIdempotencyStore } from './in-memory-idempotency-store';
import { FileContentForwarder } from '../file-transfers/file-content-forwarder';
import type { ChatInboundMessage } from '../webhooks/chat-inbound-publisher';

/** The guides and page assets where they are written (a built gateway reads the copies beside its bundle). */
export const API_REFERENCE_SOURCES = {
  guidesDirectory: path.resolve(__dirname, '../../../../docs'),
  assetsDirectory: path.resolve(__dirname, '../api-reference/browser'),
};

export const HARNESS_CHAT_APP_SECRET = 'harness-app-secret';
export const HARNESS_CHAT_VERIFY_TOKEN = 'harness-verify-token';

export interface GatewayHarnessOptions {
  rateLimiter?: RateLimiterAbstract;
  idempotencyStore?: IdempotencyStore;
  readinessChecks?: ReadinessCheck[];
  tokenCacheTtlMs?: number;
}

export type GatewayRequestInit = RequestInit & { json?: unknown; anonymous?: boolean };

export interface GatewayHarness {
  baseUrl: string;
  /** The app itself, for what only its router can tell (the routes it serves). */
  app: Express;
  conversations: FakeConversationsService;
  broadcasts: FakeBroadcastsService;
  idempotencyStore: IdempotencyStore;
  /** What POST /webhooks/chat published (instead of Kafka). */
  chatInbound: ChatInboundMessage[];
  /** fetch against the gateway; `authorization` is the test token unless given or `anonymous`. */
  request(path: string, init?: GatewayRequestInit): Promise<Response>;
  /**
   * Back to as started, for specs that share one harness (afterEach): the fakes' calls, overrides
   * and tokens, what the chat webhook published, and the default idempotency store. The rate
   * limiter is not reset: the default allows 1,000 requests a minute per token.
   */
  reset(): void;
  close(): Promise<void>;
}

/** The real app factory on an ephemeral port, in front of a real in-process gRPC fake. */
export async function startGatewayHarness(options: GatewayHarnessOptions = {}): Promise<GatewayHarness> {
  const logger = createLogger('gateway-test', 'silent');
  const conversations = new FakeConversationsService();
  const address = await conversations.start(logger);
  const broadcasts = new FakeBroadcastsService();
  const broadcastsAddress = await broadcasts.start(logger);
  // Services this harness does not fake answer UNIMPLEMENTED from the same in-process server.
  const clientOptions = { address, security: { insecure: true }, deadlineMs: 5000, callContext: currentRequestContext };
  const clients = {
    conversations: createServiceClient(ConversationsServiceClient, clientOptions),
    conversationActions: createServiceClient(ConversationActionsServiceClient, clientOptions),
    actions: createServiceClient(ActionsServiceClient, clientOptions),
    scheduler: createServiceClient(SchedulerServiceClient, clientOptions),
    files: createServiceClient(FilesServiceClient, clientOptions),
    webhookEndpoints: createServiceClient(WebhookEndpointsServiceClient, clientOptions),
    broadcasts: createServiceClient(BroadcastsServiceClient, { ...clientOptions, address: broadcastsAddress }),
  };
  const chatInbound: ChatInboundMessage[] = [];
  const ownIdempotencyStore = new InMemoryIdempotencyStore();
  const idempotencyStore = options.idempotencyStore ?? ownIdempotencyStore;
  const app = createGatewayApp({
    config: { TOKEN_CACHE_TTL_MS: options.tokenCacheTtlMs ?? 0 },
    logger,
    upstreams: {
      conversations: clients.conversations.rpc,
      conversationActions: clients.conversationActions.rpc,
      actions: clients.actions.rpc,
      scheduler: clients.scheduler.rpc,
      files: clients.files.rpc,
      webhookEndpoints: clients.webhookEndpoints.rpc,
      broadcasts: clients.broadcasts.rpc,
    },
    rateLimiter: options.rateLimiter ?? createMemoryTokenRateLimiter(1000),
    idempotencyStore,
    readinessChecks: options.readinessChecks ?? [],
    chatWebhooks: {
      appSecret: HARNESS_CHAT_APP_SECRET,
      verifyToken: HARNESS_CHAT_VERIFY_TOKEN,
      publisher: { publish: async (messages) => void chatInbound.push(...messages) },
    },
    fileContent: new FileContentForwarder(clients.files),
    apiReference: API_REFERENCE_SOURCES,
  });
  const server: Server = await listen(app, 0);
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    app,
    conversations,
    broadcasts,
    idempotencyStore,
    chatInbound,
    request: (path, { json, anonymous, headers, ...init } = {}) => {
      const requestHeaders = new Headers(headers);
      if (!anonymous && !requestHeaders.has('authorization')) requestHeaders.set('authorization', `Bearer ${TEST_TOKEN}`);
      if (json !== undefined && !requestHeaders.has('content-type')) requestHeaders.set('content-type', 'application/json');
      return fetch(`${baseUrl}${path}`, { ...init, headers: requestHeaders, body: json === undefined ? init.body : JSON.stringify(json) });
    },
    reset: () => {
      conversations.reset();
      broadcasts.reset();
      chatInbound.length = 0;
      ownIdempotencyStore.records.clear();
    },
    close: async () => {
      await closeHttpServer(server);
      for (const client of Object.values(clients)) client.close();
      conversations.stop();
      broadcasts.stop();
    },
  };
}
