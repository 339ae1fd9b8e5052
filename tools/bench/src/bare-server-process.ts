import { type ChildProcess, fork } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ContactReadPorts, ListCursorCodec, conversationListFiltersOf, getConversationStatus, getConversationTimeline, listConversations, searchContacts } from '@cmsg/conversations-domain';
import { ChannelRepository, ContactAttributeDefinitionRepository, ContactRepository, ConversationRepository, businessScope, connectMongo, disconnectMongo } from '@cmsg/dal';
import express from 'express';
import { serveBareActionService } from './bare-action-service';
import { serveBareGrpcForward, serveBareGrpcService } from './bare-hop';
import { type BareServerConfig, untilStopped } from './bare-server-protocol';
import { conversationReadPorts } from './conversation-read-ports';

/** The hidden `npm run bench` subcommand a bare server process runs (bench main.ts). */
export const BARE_SERVER_COMMAND = '__bare-server';

export interface BareServer {
  /** host:port it listens on */
  address: string;
  url: string;
  pid: number;
  /** SIGTERM: in-flight reads finish, the process exits (and writes its CPU profile when asked). */
  stop(): Promise<void>;
}

/**
 * A bare server in a process of its own, as each service is one, configured by its role
 * (bare-server-protocol.ts).
 */
export function startBareServer(config: BareServerConfig, execArgv: string[]): Promise<BareServer> {
  const child = fork(process.argv[1]!, [BARE_SERVER_COMMAND], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the bare server exited (${code}) before it listened`)));
    child.once('message', (message: { port: number }) => {
      child.removeAllListeners('exit');
      const address = `127.0.0.1:${message.port}`;
      resolve({ address, url: `http://${address}`, pid: child.pid!, stop: () => stopChild(child) });
    });
    child.send(config);
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** The child's side: waits for its config on the IPC channel, listens, answers with its port. */
export function runBareServer(): Promise<void> {
  return new Promise((resolve, reject) => {
    process.once('message', (config: BareServerConfig) => {
      served(config).then(resolve, reject);
    });
  });
}

function served(config: BareServerConfig): Promise<void> {
  switch (config.role) {
    case 'express':
      return serveBareReads(config);
    case 'grpc-service':
      return serveBareGrpcService(config);
    case 'grpc-forward':
      return serveBareGrpcForward(config);
    case 'action-service':
      return serveBareActionService(config);
  }
}

/**
 * The bare path of the reads: the same use cases on the same database through the same driver and
 * pool, behind a bare Express handler. No request id, token, rate limit, validation, logging or gRPC
 * hop: what the full path costs beyond the reads.
 */
async function serveBareReads(config: Extract<BareServerConfig, { role: 'express' }>): Promise<void> {
  await connectMongo(config.mongodbUri);
  const scope = businessScope(config.businessId);
  const codec = new ListCursorCodec(config.signingSecret);
  const reads = conversationReadPorts();
  const inFlight = new Set<Promise<unknown>>();
  const tracked = <Value>(query: Promise<Value>): Promise<Value> => {
    inFlight.add(query);
    void query.finally(() => inFlight.delete(query)).catch(() => undefined);
    return query;
  };
  const app = express();
  app.use(express.json());
  app.post('/conversation/status', (request, response, next) => {
    tracked(getConversationStatus(reads.status, scope, request.body.conversation)).then((snapshot) => response.json(snapshot), next);
  });
  app.get('/conversations', (request, response, next) => {
    const text = (name: string) => (typeof request.query[name] === 'string' ? (request.query[name] as string) : undefined);
    const tags = ([] as unknown[]).concat(request.query['tag'] ?? []).map(String);
    const filters = conversationListFiltersOf({ inbox_status: text('inbox_status'), tags, mailbox: undefined, ai_employee: undefined, window: undefined, is_tester: undefined, updated_since: undefined });
    tracked(listConversations(reads.list, scope, codec, { limit: Number(request.query['limit'] ?? 50), order: 'desc', filters })).then((page) => response.json(page), next);
  });
  app.get('/conversation/timeline', (request, response, next) => {
    const page = getConversationTimeline(reads.timeline, scope, codec, { conversationUuid: String(request.query['conversation_uuid']), kinds: [], order: 'asc', limit: Number(request.query['limit'] ?? 50) });
    tracked(page).then((timeline) => response.json(timeline), next);
  });
  const contactReads = contactReadPorts();
  app.post('/contacts/search', (request, response, next) => {
    tracked(searchContacts(contactReads, codec, scope, { filter: request.body.filter, limit: Number(request.body.limit ?? 50) })).then((page) => response.json(page), next);
  });
  // A failed read is counted as a non-2xx by the load generator; its stack on every request would bury the figures.
  app.use((error: Error, _request: express.Request, response: express.Response, _next: express.NextFunction) => {
    response.status(500).json({ message: error.message });
  });
  const server = await new Promise<Server>((listening) => {
    const started = app.listen(0, '127.0.0.1', () => listening(started));
  });
  await untilStopped((server.address() as AddressInfo).port);
  await new Promise((closed) => server.close(closed));
  // The load generator hangs up at its deadline; reads it abandoned still run and must end before the pool closes.
  await Promise.allSettled(inFlight);
  await disconnectMongo();
  process.disconnect();
}

/** The contact reads' ports over the data layer, as the conversations service builds them. */
function contactReadPorts(): ContactReadPorts {
  const channels = new ChannelRepository();
  const conversations = new ConversationRepository();
  return {
    contacts: new ContactRepository(),
    attributeDefinitions: new ContactAttributeDefinitionRepository(),
    channels: { byIds: async (scope, ids) => (await channels.findByIds(scope, ids)).map((channel) => ({ id: String(channel._id), publicKey: channel.public_key })) },
    conversations: { idsByContactIds: (scope, contactIds) => conversations.idsByContactIds(scope, contactIds) },
  };
}
