import { randomUUID } from 'node:crypto';
import { ChannelRepository, businessScope, connectMongo, disconnectMongo } from '@cmsg/dal';
import { type Broadcast, type BroadcastAudience, BroadcastsServiceClient, type SendWindow, type ServiceClient, createServiceClient } from '@cmsg/proto';
import { AppProcess, type TestBusiness, createTestBusinessIn, freePort } from '@cmsg/testing';
import { seedActionGroupTargets } from './action-group-load';
import { type BenchStack, startBenchStack } from './bench-stack';
import { bulkContactPhone, insertBulkConversations } from './bulk-conversations';
import { type FakesProcess, startFakesProcess } from './fakes-process';
import { infraServerPids } from './process-cpu';
import type { ProviderArrival } from './provider-arrivals';

export const BROADCAST_TEMPLATE = { name: 'bench_broadcast', language: 'en' } as const;
/** The first name of every audience contact; the live conversations' contacts are named otherwise. */
const AUDIENCE_FIRST_NAME = 'Bench';
export const AUDIENCE_FILTER = { and: [{ field: 'first_name', op: 'eq', value: AUDIENCE_FIRST_NAME }] };

export interface BroadcastBenchStackOptions {
  /** The channel's max_messages_per_second (seed), also the fake Cloud API's throughput for its number. */
  channelRate: number;
  /** Contacts with a conversation on the channel, written in bulk: the audience. */
  audience: number;
  /** actions-runner processes in all (the stack's own and more beside it). */
  runnerReplicas: number;
  /** Contacts with an open window for action groups, outside the audience. */
  liveConversations: number;
  /** Rebuild the apps first (the first stack of a run). */
  build: boolean;
  /** node options of every app (`--cpu-prof`). */
  nodeArgs: string[];
}

/**
 * A stack of the product on a MongoDB of its own with the fake Cloud API, a business whose one
 * channel has the given rate and an approved utility template, its audience written in bulk, and
 * the broadcasts gRPC service of the conversations service to drive it.
 */
export class BroadcastBenchStack {
  private constructor(
    readonly bench: BenchStack,
    readonly fakes: FakesProcess,
    readonly business: TestBusiness,
    readonly phoneNumberId: string,
    readonly liveConversations: string[],
    private readonly replicas: AppProcess[],
    private readonly replicaMetricsUrls: Record<string, string>,
    private readonly client: ServiceClient<BroadcastsServiceClient>,
  ) {}

  static async start(options: BroadcastBenchStackOptions): Promise<BroadcastBenchStack> {
    const fakes = await startFakesProcess();
    let bench: BenchStack | undefined;
    const replicas: AppProcess[] = [];
    try {
      bench = await startBenchStack({
        // The product limit is 60 requests a minute per token; the action groups beside a broadcast go faster.
        env: { ...fakes.env, RATE_LIMIT_PER_MINUTE: '100000000', LOG_LEVEL: 'warn' },
        build: options.build,
        nodeArgs: options.nodeArgs,
        fakes: { chatApiBaseUrl: fakes.chatApiBaseUrl, aiBaseUrl: fakes.aiBaseUrl },
      });
      const { description } = bench;
      const replicaMetricsUrls: Record<string, string> = {};
      for (let index = 2; index <= options.runnerReplicas; index += 1) {
        const name = `actions-runner-${index}`;
        const metricsPort = await freePort();
        const replica = new AppProcess(name, 'actions-runner', { ...description.env, GRPC_ADDRESS: `127.0.0.1:${await freePort()}`, METRICS_PORT: String(metricsPort) }, description.logDir, options.nodeArgs);
        replica.start();
        replicas.push(replica);
        replicaMetricsUrls[name] = `http://127.0.0.1:${metricsPort}/metrics`;
      }
      await connectMongo(description.env['MONGODB_URI']!);
      let liveConversations: string[] = [];
      const business = await createTestBusinessIn(description, (seed) => {
        seed.time_zone = 'UTC';
        const channel = seed.channels![0]!;
        channel.max_messages_per_second = options.channelRate;
        seed.templates = [{ uuid: randomUUID(), ...BROADCAST_TEMPLATE, status: 'approved', category: 'utility', body: 'Hello {{1}}, your order is on its way.', channel: channel.public_key }];
        if (options.liveConversations > 0) liveConversations = seedActionGroupTargets(seed, options.liveConversations, 'Live');
      });
      const phoneNumberId = business.seed.channels![0]!.phone_number_id;
      await fakes.cloudApi.setThroughput(phoneNumberId, options.channelRate);
      const client = createServiceClient(BroadcastsServiceClient, { address: description.env['CONVERSATIONS_GRPC_ADDRESS']!, security: { insecure: true }, deadlineMs: 60_000 });
      const stack = new BroadcastBenchStack(bench, fakes, business, phoneNumberId, liveConversations, replicas, replicaMetricsUrls, client);
      if (options.audience > 0) await stack.insertAudience(options.audience);
      return stack;
    } catch (error) {
      for (const replica of replicas) await replica.stop();
      await disconnectMongo();
      await bench?.stop();
      await fakes.stop();
      throw error;
    }
  }

  /** `count` contacts named Bench with their conversations on the channel, written in bulk (what AUDIENCE_FILTER selects). */
  async insertAudience(count: number): Promise<void> {
    const channel = await new ChannelRepository().findByPublicKey(businessScope(this.business.businessId), this.business.channelKey);
    if (!channel) throw new Error('the bench business has no channel');
    const started = Date.now();
    await insertBulkConversations({ businessId: this.business.businessId, from: 0, count, messages: 0, channelId: String(channel._id) });
    console.log(`  stack ${this.bench.description.runId}: ${count} audience contacts written in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }

  /**
   * A CSV audience file of `rows` phones, uploaded through the public API and confirmed; answers its
   * uuid. `new`: phones no contact has yet (each row creates its contact when the audience is
   * frozen); `existing`: the phones of the contacts insertAudience writes.
   */
  async uploadAudienceFile(rows: number, phones: 'new' | 'existing' = 'new'): Promise<string> {
    const phoneOf = (index: number) => (phones === 'new' ? `+5215520${String(index).padStart(6, '0')}` : `+${bulkContactPhone(index)}`);
    const lines = ['phone,code', ...Array.from({ length: rows }, (_, index) => `${phoneOf(index)},C${index}`)];
    const bytes = Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');
    const { api } = this.business;
    const requested = await api.post('/files/request-upload', { module: 'broadcast_audiences', file_name: 'audience.csv', mime_type: 'text/csv', size: bytes.length });
    if (requested.status !== 201) throw new Error(`request-upload answered ${requested.status}: ${JSON.stringify(requested.body)}`);
    const put = await fetch(requested.body.upload.url, { method: 'PUT', headers: { 'content-type': 'text/csv' }, body: bytes });
    if (put.status !== 204) throw new Error(`the audience upload PUT answered ${put.status}: ${await put.text()}`);
    const confirmed = await api.post('/files/confirm', { file_uuid: requested.body.file.uuid });
    if (confirmed.status !== 200) throw new Error(`confirm answered ${confirmed.status}: ${JSON.stringify(confirmed.body)}`);
    return requested.body.file.uuid;
  }

  /** Every app (runner replicas included), the stack's own MongoDB, and the machine's Kafka and Redis (shared with whatever else runs). */
  get pids(): Record<string, number> {
    const { description, mongo } = this.bench;
    const shared = Object.entries(infraServerPids(description.env)).filter(([name]) => name !== 'mongodb');
    return {
      ...description.pids,
      ...Object.fromEntries(this.replicas.map((replica) => [replica.name, replica.pid ?? 0])),
      mongodb: mongo.pid,
      ...Object.fromEntries(shared.map(([name, pid]) => [`${name} (shared)`, pid])),
    };
  }

  /** The apps' Prometheus endpoints, runner replicas included. */
  get metricsUrls(): Record<string, string> {
    return { ...this.bench.description.metricsUrls, ...this.replicaMetricsUrls };
  }

  get runnerNames(): string[] {
    return ['actions-runner', ...this.replicas.map((replica) => replica.name)];
  }

  async createBroadcast(name: string, audience: BroadcastAudience, sendWindow?: SendWindow): Promise<Broadcast> {
    return this.client.rpc.createBroadcast({
      caller: this.caller,
      name,
      channel: this.business.channelKey,
      template: { ...BROADCAST_TEMPLATE },
      variables: [{ index: 1, value: '{{contact.first_name|there}}' }],
      header: undefined,
      button_parameters: [],
      audience,
      send_window: sendWindow,
    });
  }

  getBroadcast(uuid: string): Promise<Broadcast> {
    return this.client.rpc.getBroadcast({ caller: this.caller, uuid });
  }

  /** Cancels it unless it is final already; answers what it became. */
  async cancelBroadcast(uuid: string): Promise<Broadcast> {
    const current = await this.getBroadcast(uuid);
    if (['completed', 'cancelled', 'failed'].includes(current.status)) return current;
    return this.client.rpc.changeBroadcastState({ caller: this.caller, uuid, transition: 'cancel' });
  }

  /** Polls the broadcast (its cached counts: a cheap read) until `done` says so or `timeoutMs` ran out; answers the last read. */
  async waitForBroadcast(uuid: string, done: (broadcast: Broadcast) => boolean, timeoutMs: number, pollMs = 1000): Promise<Broadcast> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const broadcast = await this.getBroadcast(uuid);
      if (done(broadcast) || Date.now() >= deadline) return broadcast;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  /** The message sends of the channel's number the fake Cloud API received, of one kind (`template` for the broadcast, `text` for live sends). */
  async sends(type: 'template' | 'text'): Promise<(ProviderArrival & { text: string | undefined })[]> {
    return (await this.fakes.cloudApi.requests({ kind: 'message', phone_number_id: this.phoneNumberId }))
      .filter((record) => (record.body as { type?: string } | undefined)?.type === type)
      .map((record) => ({ at_ms: record.at_ms, to: record.to, status: record.status, error_code: record.error_code, text: (record.body as { text?: { body?: string } }).text?.body }));
  }

  async stop(): Promise<void> {
    this.client.close();
    for (const replica of this.replicas) await replica.stop();
    await disconnectMongo();
    await this.bench.stop();
    await this.fakes.stop();
  }

  private get caller() {
    return { business_id: this.business.businessId, token_uuid: this.business.tokenUuid };
  }
}
