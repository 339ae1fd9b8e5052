import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ListCursorCodec, ListCursorCodec as CursorCodec, getConversationStatus, listConversations } from '@cmsg/conversations-domain';
import { ContactRepository, ConversationRepository, businessScope, connectMongo, disconnectMongo } from '@cmsg/dal';
import { LocalStack, createTestBusinessIn } from '@cmsg/testing';
import express from 'express';
import { type BenchmarkModule, integerOptions } from './benchmark-module';
import { formatFigures, type LoadFigures, runLoad } from './load-test';

const CONVERSATIONS = 1000;

/**
 * Issue 2 benchmark: the full path (HTTP gateway -> gRPC -> conversations service -> MongoDB)
 * against a bare Express handler that calls the same use case on the same database in one
 * process, for POST /conversation/status and GET /conversations?limit=100.
 */
export const conversationReadsBenchmark: BenchmarkModule = {
  summary: 'POST /conversation/status and GET /conversations?limit=100: full path vs a bare Express handler on the same query',
  options: ['--duration <seconds per run> (default 10)', '--connections <concurrent connections> (default 10)'],
  run: async (argv) => {
    const { duration, connections } = integerOptions(argv, { duration: 10, connections: 10 });
    await runConversationReads({ durationSeconds: duration, connections });
  },
};

async function runConversationReads(options: { durationSeconds: number; connections: number }): Promise<void> {
  // The product limit is 60 requests/minute per token; a load test measures throughput instead.
  const stack = new LocalStack({ env: { RATE_LIMIT_PER_MINUTE: '100000000', LOG_LEVEL: 'warn' } });
  const description = await stack.start();
  let bare: Server | undefined;
  try {
    await connectMongo(description.env['MONGODB_URI']!);
    const business = await createTestBusinessIn(description, (seed) => seed);
    const conversationUuid = await insertConversations(business.businessId, CONVERSATIONS);
    const codec = new CursorCodec(description.env['SIGNING_SECRET']!);
    bare = await startBareServer(business.businessId, codec);
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
    const gatewayUrl = `${description.gatewayUrls[0]}/v1/${business.slug}`;
    const headers = { authorization: `Bearer ${business.token}`, 'content-type': 'application/json' };
    const statusBody = JSON.stringify({ conversation: { uuid: conversationUuid } });
    const load = { connections: options.connections, duration: options.durationSeconds, headers };

    console.log(`\nconversation reads: ${CONVERSATIONS} conversations, ${options.connections} connections, ${options.durationSeconds} s per run`);
    const rows: [string, LoadFigures, LoadFigures][] = [];
    for (const [name, method, path, body] of [
      ['POST /conversation/status', 'POST', '/conversation/status', statusBody],
      ['GET /conversations?limit=100', 'GET', '/conversations?limit=100', undefined],
    ] as const) {
      const full = await runLoad({ ...load, url: `${gatewayUrl}${path}`, method, body });
      const direct = await runLoad({ ...load, url: `${bareUrl}${path}`, method, body });
      rows.push([name, full, direct]);
      console.log(formatFigures(`${name} full path`, full));
      console.log(formatFigures(`${name} bare Express`, direct));
      console.log(`${''.padEnd(44)} full/bare throughput ratio ${(full.requestsPerSecond / direct.requestsPerSecond).toFixed(2)}, p50 ratio ${(full.p50Ms / Math.max(direct.p50Ms, 0.01)).toFixed(2)}`);
    }
  } finally {
    await new Promise((resolve) => (bare ? bare.close(resolve) : resolve(undefined)));
    // The load generator hangs up at its deadline; queries it abandoned still run and must end before the client closes.
    await Promise.allSettled(bareQueriesInFlight);
    await disconnectMongo();
    await stack.stop();
  }
}

async function insertConversations(businessId: string, count: number): Promise<string> {
  const now = Date.now();
  const contacts = [];
  const conversations = [];
  for (let index = 0; index < count; index += 1) {
    const at = new Date(now - index * 60_000);
    const contactId = randomUUID();
    contacts.push({ _id: contactId, channel_id: 'bench', first_name: 'Bench', last_name: `#${index}`, phone: `+5215500${String(index).padStart(6, '0')}`, phone_key: `5215500${String(index).padStart(6, '0')}`, created_at: at, updated_at: at });
    conversations.push({
      _id: randomUUID(),
      contact_id: contactId,
      channel_id: 'bench',
      last_message: { uuid: randomUUID(), body: 'hello', content_type: 'text', is_from_customer: true, created_at: at },
      last_inbound_at: at,
      unread_count: 1,
      sort_at: at,
      created_at: at,
      updated_at: at,
    });
  }
  const scope = businessScope(businessId);
  await new ContactRepository().insertMany(scope, contacts);
  await new ConversationRepository().insertMany(scope, conversations);
  return conversations[0]!._id;
}

const bareQueriesInFlight = new Set<Promise<unknown>>();

function tracked<Value>(query: Promise<Value>): Promise<Value> {
  bareQueriesInFlight.add(query);
  void query.finally(() => bareQueriesInFlight.delete(query)).catch(() => undefined);
  return query;
}

/** The same use cases, same database, no gateway pipeline and no gRPC hop. */
function startBareServer(businessId: string, codec: ListCursorCodec): Promise<Server> {
  const scope = businessScope(businessId);
  const app = express();
  app.use(express.json());
  app.post('/conversation/status', (request, response, next) => {
    tracked(getConversationStatus(scope, request.body.conversation)).then((snapshot) => response.json(snapshot), next);
  });
  app.get('/conversations', (request, response, next) => {
    tracked(listConversations(scope, codec, { limit: Number(request.query['limit'] ?? 50), order: 'desc' })).then((page) => response.json(page), next);
  });
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
  });
}
