import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getConversationStatus } from '@cmsg/conversations-domain';
import { businessScope, connectMongo, disconnectMongo } from '@cmsg/dal';
import { ConversationsServiceClient, type ConversationRequest, type ConversationStatus, ConversationsServiceService } from '@cmsg/proto';
import * as grpc from '@grpc/grpc-js';
import express from 'express';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { createClient } from '@redis/client';
import { type BareServerConfig, untilStopped } from './bare-server-protocol';
import { conversationReadPorts } from './conversation-read-ports';

/**
 * The bare hop: the least the design's two processes can cost for the status read. A bare grpc-js
 * server runs the use case (as the conversations service does, without its call context, metrics,
 * logging and error mapping); a bare Express handler in another process forwards the JSON body to
 * it over plaintext gRPC and answers the proto message as JSON (as the gateway does, without its
 * request id, token check, rate limit, validation, logging, metrics and response mapping).
 */
export async function serveBareGrpcService(config: Extract<BareServerConfig, { role: 'grpc-service' }>): Promise<void> {
  await connectMongo(config.mongodbUri);
  const scope = businessScope(config.businessId);
  const reads = conversationReadPorts();
  const server = new grpc.Server();
  // Only the one method: the others answer UNIMPLEMENTED, as grpc-js does for any method left out.
  server.addService(ConversationsServiceService, {
    getConversationStatus: (call: grpc.ServerUnaryCall<ConversationRequest, ConversationStatus>, callback: grpc.sendUnaryData<ConversationStatus>) => {
      getConversationStatus(reads.status, scope, call.request.conversation ?? {}).then(
        (status) => callback(null, status),
        (error: Error) => callback({ code: grpc.status.INTERNAL, details: error.message }),
      );
    },
  } as unknown as grpc.UntypedServiceImplementation);
  const port = await new Promise<number>((bound, failed) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, boundPort) => (error ? failed(error) : bound(boundPort))),
  );
  await untilStopped(port);
  // Calls under way finish first: the load generator's abandoned requests still reach the database.
  await new Promise<void>((shutDown) => server.tryShutdown(() => shutDown()));
  await disconnectMongo();
  process.disconnect();
}

export async function serveBareGrpcForward(config: Extract<BareServerConfig, { role: 'grpc-forward' }>): Promise<void> {
  const client = new ConversationsServiceClient(config.serviceAddress, grpc.credentials.createInsecure());
  const caller = { business_id: config.businessId, token_uuid: '' };
  // Under /limited, the gateway's per-token rate limit first: SPEC requires it on every request and
  // DESIGN.md keeps it in Redis (a point consumed per request through rate-limiter-flexible, as the
  // gateway does), with a limit no load reaches.
  const redis = createClient({ url: config.redisUrl });
  await redis.connect();
  const limiter = new RateLimiterRedis({ storeClient: redis, useRedisPackage: true, points: 1e9, duration: 60, keyPrefix: 'bench:hop' });
  const forward = (request: express.Request, response: express.Response) => {
    client.getConversationStatus({ caller, conversation: request.body.conversation }, (error, status) => {
      if (error) response.status(500).json({ message: error.message });
      else response.json(status);
    });
  };
  const app = express();
  app.use(express.json());
  app.post('/conversation/status', forward);
  app.post('/limited/conversation/status', (request, response) => {
    limiter.consume('bench-token').then(
      () => forward(request, response),
      (rejection: unknown) => response.status(500).json({ message: String(rejection) }),
    );
  });
  const server = await new Promise<Server>((listening) => {
    const started = app.listen(0, '127.0.0.1', () => listening(started));
  });
  await untilStopped((server.address() as AddressInfo).port);
  await new Promise((closed) => server.close(closed));
  client.close();
  await redis.quit();
  process.disconnect();
}
