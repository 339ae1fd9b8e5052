import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ListCursorCodec, getConversationStatus, listConversations } from '@cmsg/conversations-domain';
import { InProcessWebhookEndpointListVersions, businessScope, connectMongo, disconnectMongo, seedStoresOverMongo } from '@cmsg/dal';
import { type SeedFileInput, type SeedSummary, seedDatabase } from '@cmsg/seed';
import { WORKSPACE_ROOT } from '@cmsg/testing';
import mongoose from 'mongoose';
import { type BenchmarkModule, integerOptions, percentile } from './benchmark-module';
import { insertBulkConversations } from './bulk-conversations';
import { conversationReadPorts } from './conversation-read-ports';
import type { FiguresRecorder } from './figures-recorder';
import { type MongoBackend, type ThrowawayMongoServer, residentBytes, startThrowawayMongoServer } from '@cmsg/testing';

const DEFAULTS = { conversations: 10_000, 'status-reads': 300, 'list-pages': 50, writes: 2000, writers: 8 };
type Options = typeof DEFAULTS;

const BACKENDS: readonly MongoBackend[] = ['h2', 'memory'];
const MIB = 1024 * 1024;

interface Timed {
  count: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
}

/** One row of the side-by-side table: a figure of each backend. */
interface Row {
  label: string;
  unit: string;
  values: Record<MongoBackend, number>;
  digits: number;
}

/**
 * Issue 12 item 1: the H2 and memory backends of the local MongoDB side by side, both started by
 * infra.sh on free ports, at the demo's scale (tools/seed/demo.json through the seed loader, what
 * `npm start` loads) and at 10,000 conversations (the demo plus generated contacts and
 * conversations of two messages each, written in bulk: the seed loader's upserts scan on the local
 * server). Through the driver directly, no app processes: the status and list use cases, and
 * inbound-like writes (a message insert and the conversation's update, several writers at once).
 */
export const mongoBackendsBenchmark: BenchmarkModule = {
  summary: 'local MongoDB backends (H2 vs memory) side by side at the demo scale and at 10,000 conversations: seed, status read, list page, writes, memory',
  options: [
    `--conversations <n>   conversations added in bulk for the large scale (default ${DEFAULTS.conversations})`,
    `--status-reads <n>    sequential status reads per scale (default ${DEFAULTS['status-reads']})`,
    `--list-pages <n>      sequential first pages of 100 (default ${DEFAULTS['list-pages']})`,
    `--writes <n>          message inserts, each with its conversation update (default ${DEFAULTS.writes})`,
    `--writers <n>         writes in flight (default ${DEFAULTS.writers})`,
  ],
  run: (argv, figures) => runMongoBackends(figures.parameters(integerOptions(argv, DEFAULTS)), figures),
};

async function runMongoBackends(options: Options, figures: FiguresRecorder): Promise<void> {
  const servers: Partial<Record<MongoBackend, ThrowawayMongoServer>> = {};
  try {
    for (const backend of BACKENDS) servers[backend] = await startThrowawayMongoServer(backend);
    const started = servers as Record<MongoBackend, ThrowawayMongoServer>;
    const rows: Row[] = [row('server start (infra.sh mongo-up to first ping)', 's', 1, (backend) => started[backend].startSeconds)];
    rows.push(row('server resident memory, idle', 'MiB', 0, (backend) => residentBytes(started[backend].pid) / MIB));
    const demo = JSON.parse(readFileSync(path.join(WORKSPACE_ROOT, 'tools/seed/demo.json'), 'utf8')) as SeedFileInput;
    for (const [scale, generated] of [
      ['demo', 0],
      [`${options.conversations} conversations`, options.conversations],
    ] as const) {
      const measured = {} as Record<MongoBackend, ScaleFigures>;
      for (const backend of BACKENDS) measured[backend] = await measureScale(started[backend], demo, generated, options);
      rows.push(row(`${scale}: seed of the demo file (${measured.h2.seededDocuments} documents)`, 's', 2, (backend) => measured[backend].seed.seconds));
      if (generated > 0) {
        rows.push(row(`${scale}: bulk load of ${generated} conversations (${generated * 4} documents)`, 's', 2, (backend) => measured[backend].bulk.seconds));
      }
      rows.push(
        row(`${scale}: status read p50`, 'ms', 2, (backend) => measured[backend].status.p50Ms),
        row(`${scale}: status read p99`, 'ms', 2, (backend) => measured[backend].status.p99Ms),
        row(`${scale}: status reads, one at a time`, 'reads/s', 0, (backend) => rate(measured[backend].status)),
        row(`${scale}: list page of 100 p50`, 'ms', 1, (backend) => measured[backend].list.p50Ms),
        row(`${scale}: list page of 100 p99`, 'ms', 1, (backend) => measured[backend].list.p99Ms),
        row(`${scale}: writes (${options.writers} writers)`, 'writes/s', 0, (backend) => rate(measured[backend].writes)),
        row(`${scale}: write p99`, 'ms', 1, (backend) => measured[backend].writes.p99Ms),
        row(`${scale}: server resident memory after`, 'MiB', 0, (backend) => measured[backend].residentBytes / MIB),
        row(`${scale}: H2 store on disk after`, 'MiB', 1, (backend) => measured[backend].storeBytes / MIB),
      );
    }
    printRows(rows, options);
    for (const { label, unit, values } of rows) for (const backend of BACKENDS) figures.record(`${backend}: ${label}`, values[backend], unit);
  } finally {
    for (const server of Object.values(servers)) server.stop();
  }
}

interface ScaleFigures {
  seededDocuments: number;
  seed: Timed;
  bulk: Timed;
  status: Timed;
  list: Timed;
  writes: Timed;
  residentBytes: number;
  storeBytes: number;
}

async function measureScale(server: ThrowawayMongoServer, demo: SeedFileInput, generated: number, options: Options): Promise<ScaleFigures> {
  await connectMongo(`${server.uri}bench_${randomUUID().slice(0, 8)}`);
  try {
    let summary: SeedSummary | undefined;
    // A throwaway database no service reads: nobody else keeps its endpoint lists.
    const seedStores = seedStoresOverMongo(new InProcessWebhookEndpointListVersions());
    const seed = await timeOperations(1, 1, async () => {
      summary = await seedDatabase(seedStores, demo);
    });
    const seededDocuments = summary!.businesses.reduce((sum, business) => sum + Object.values(business.counts).reduce((total, counts) => total + counts.total, 0), 0);
    const scope = businessScope(summary!.businesses[0]!.uuid);
    const bulk = await timeOperations(1, 1, () => insertBulkConversations({ businessId: scope.businessId, from: 0, count: generated, messages: 2 }));
    const codec = new ListCursorCodec('bench-only-signing-secret');
    const reads = conversationReadPorts();
    const page = () => listConversations(reads.list, scope, codec, { limit: 100, order: 'desc' });
    const conversations = (await page()).items.map((item) => item.uuid);
    const status = await timeOperations(options['status-reads'], 1, (index) => getConversationStatus(reads.status, scope, { uuid: conversations[index % conversations.length]! }));
    const list = await timeOperations(options['list-pages'], 1, page);
    const writes = await timeOperations(options.writes, options.writers, (index) => inboundLikeWrite(scope.businessId, conversations[index % conversations.length]!));
    await mongoose.connection.db!.dropDatabase();
    return {
      seededDocuments,
      seed,
      bulk,
      status,
      list,
      writes,
      residentBytes: residentBytes(server.pid),
      storeBytes: server.storeBytes(),
    };
  } finally {
    await disconnectMongo();
  }
}

/** What an inbound message writes: the message, then the conversation's summary and counter. */
async function inboundLikeWrite(businessId: string, conversationId: string): Promise<void> {
  const now = new Date();
  const message = { _id: randomUUID(), business_id: businessId, conversation_id: conversationId, is_from_customer: true, body: 'A customer writes again', content_type: 'text', status: 'received', created_at: now };
  await mongoose.connection.collection<{ _id: string }>('messages').insertOne(message);
  await mongoose.connection.collection<{ _id: string }>('conversations').updateOne(
    { _id: conversationId, business_id: businessId },
    { $set: { last_message: { uuid: message._id, body: message.body, content_type: 'text', is_from_customer: true, created_at: now }, last_inbound_at: now, sort_at: now, updated_at: now }, $inc: { unread_count: 1 } },
  );
}

/** `count` operations, `concurrency` in flight: total time and per-operation latency percentiles. */
async function timeOperations(count: number, concurrency: number, operation: (index: number) => Promise<unknown>): Promise<Timed> {
  const latencies: number[] = [];
  let next = 0;
  const started = process.hrtime.bigint();
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const at = process.hrtime.bigint();
      await operation(index);
      latencies.push(Number(process.hrtime.bigint() - at) / 1e6);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  return { count, seconds, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99) };
}

function rate(timed: Timed): number {
  return timed.count / timed.seconds;
}

function row(label: string, unit: string, digits: number, value: (backend: MongoBackend) => number): Row {
  return { label, unit, digits, values: { h2: value('h2'), memory: value('memory') } };
}

function printRows(rows: Row[], options: Options): void {
  console.log(
    `\nlocal MongoDB backends side by side (mongo-java-server, each started by infra.sh on a free port): demo seed file, bulk conversations,` +
      ` status and list use cases, ${options.writes} inbound-like writes by ${options.writers} writers; through the driver, no app processes`,
  );
  const width = Math.max(...rows.map(({ label }) => label.length));
  console.log(`${''.padEnd(width)} ${'h2'.padStart(14)} ${'memory'.padStart(14)}   memory/h2`);
  for (const { label, unit, digits, values } of rows) {
    const cell = (value: number) => `${value.toFixed(digits)} ${unit}`.padStart(14);
    const ratio = values.h2 > 0 ? `${(values.memory / values.h2).toFixed(2)}x` : '-';
    console.log(`${label.padEnd(width)} ${cell(values.h2)} ${cell(values.memory)}   ${ratio.padStart(9)}`);
  }
}
