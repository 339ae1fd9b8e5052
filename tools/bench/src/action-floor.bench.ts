import { randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import { AlreadyInStatePolicy, type ChangeTagsRequest, type ChangeTagsResponse, ConversationActionsServiceClient } from '@cmsg/proto';
import { startThrowawayMongoServer } from '@cmsg/testing';
import * as grpc from '@grpc/grpc-js';
import { type Collection, MongoClient } from 'mongodb';
import { ACTION_FLOOR_DATABASE, type FloorConversation, type FloorDocument, prepareActionFloorCollections } from './bare-action-service';
import { startBareServer } from './bare-server-process';
import { type BenchmarkModule, integerOptions, percentile } from './benchmark-module';
import type { FiguresRecorder } from './figures-recorder';
import { CpuMeter } from './process-cpu';

const DEFAULTS = { duration: 20, rounds: 3, concurrency: 64, conversations: 1000 };
export type ActionFloorOptions = typeof DEFAULTS;

const ACTIONS_PER_GROUP = 5;
const BUSINESS_ID = 'floor-business';
const PROCESSES = ['runner', 'service', 'mongodb'] as const;
type FloorProcess = (typeof PROCESSES)[number];

/**
 * Issue 12: the CPU an action group's non-AI action needs at the least in the design's shape, to
 * read the action-groups benchmark against. A bare runner (this process) and a bare service (a
 * process of its own) on a local MongoDB of their own: per group one insert of the group document
 * and one finishing update; per action one gRPC call, whose handler does the conversation's MongoDB
 * work (bare-action-service.ts), and one atomic update of the group that records the result and
 * starts the next action. What the product does besides is left out: the gateway and the command
 * topic, validation, reference resolution, webhook fan-out, mongoose, logging, metrics, telemetry.
 */
export const actionFloorBenchmark: BenchmarkModule = {
  summary: "the least CPU a non-AI action needs in the design's shape (bare runner, bare gRPC service, MongoDB): the floor under action-groups",
  options: [
    `--duration <s>       seconds of each round (default ${DEFAULTS.duration})`,
    `--rounds <n>         rounds; the figures are their medians (default ${DEFAULTS.rounds})`,
    `--concurrency <n>    groups running at once, as the runner's COMMAND_CONCURRENCY (default ${DEFAULTS.concurrency})`,
    `--conversations <n>  conversations the groups act on (default ${DEFAULTS.conversations})`,
  ],
  run: async (argv, figures) => {
    await runActionFloor(figures.parameters(integerOptions(argv, DEFAULTS)), figures);
  },
};

export interface ActionFloorRound {
  actionsPerSecond: number;
  /** CPU milliseconds per action, by process. */
  cpuMsPerAction: Record<FloorProcess, number>;
}
type Round = ActionFloorRound;

/** Runs the floor, prints and records its rounds; answers the medians (the other benchmarks read theirs against it). */
export async function runActionFloor(options: ActionFloorOptions, figures: FiguresRecorder): Promise<ActionFloorRound> {
  const mongo = await startThrowawayMongoServer('memory');
  const client = await MongoClient.connect(mongo.uri, { maxPoolSize: 20 });
  let service: Awaited<ReturnType<typeof startBareServer>> | undefined;
  let grpcClient: ConversationActionsServiceClient | undefined;
  try {
    const database = client.db(ACTION_FLOOR_DATABASE);
    await prepareActionFloorCollections(database);
    const conversationIds = Array.from({ length: options.conversations }, () => randomUUID());
    await database.collection<FloorConversation>('conversations').insertMany(
      conversationIds.map((id) => ({ _id: id, business_id: BUSINESS_ID, tag_ids: [], sequence: 0, outbox: [], updated_at: new Date() })),
    );
    service = await startBareServer({ role: 'action-service', mongodbUri: mongo.uri }, []);
    grpcClient = new ConversationActionsServiceClient(service.address, grpc.credentials.createInsecure());
    const runner = new FloorRunner(grpcClient, database.collection<FloorDocument>('action_groups'), conversationIds);
    console.log(`action floor: ${options.conversations} conversations, ${options.concurrency} groups at once, ${options.rounds} rounds of ${options.duration} s`);
    await runner.run(options.concurrency, 2000);
    const rounds: Round[] = [];
    for (let round = 1; round <= options.rounds; round += 1) {
      const meter = new CpuMeter({ service: service.pid, mongodb: mongo.pid });
      meter.start();
      const runnerCpu = process.cpuUsage();
      const started = Date.now();
      const actions = await runner.run(options.concurrency, options.duration * 1000);
      const seconds = (Date.now() - started) / 1000;
      const { user, system } = process.cpuUsage(runnerCpu);
      const cpu: Partial<Record<FloorProcess, number>> = { ...meter.stop(), runner: (user + system) / 1e6 };
      const cpuMsPerAction = Object.fromEntries(PROCESSES.map((name) => [name, ((cpu[name] ?? Number.NaN) * 1000) / actions])) as Record<FloorProcess, number>;
      rounds.push({ actionsPerSecond: actions / seconds, cpuMsPerAction });
      console.log(`  round ${round}: ${formatRound(rounds[rounds.length - 1]!)}`);
    }
    const median = medianRound(rounds);
    console.log(`  median: ${formatRound(median)}`);
    const total = sum(Object.values(median.cpuMsPerAction));
    const cores = cpus().length;
    console.log(`  ${total.toFixed(2)} ms of CPU per action in all: at most ${Math.floor((cores * 1000) / total)} actions/s on this machine's ${cores} cores, if nothing else ran`);
    figures.record(`action floor: actions/s (median of ${options.rounds})`, median.actionsPerSecond, 'actions/s');
    for (const name of PROCESSES) figures.record(`action floor: CPU per action, ${name}`, median.cpuMsPerAction[name], 'ms');
    figures.record('action floor: CPU per action, all', total, 'ms');
    return median;
  } finally {
    grpcClient?.close();
    await service?.stop();
    await client.close();
    mongo.stop();
  }
}

/** The bare runner: groups of five tag actions, each a gRPC call and an update of the group. */
class FloorRunner {
  constructor(
    private readonly service: ConversationActionsServiceClient,
    private readonly groups: Collection<FloorDocument>,
    private readonly conversationIds: readonly string[],
  ) {}

  /** Runs groups from `concurrency` loops until `durationMs` is over; answers the actions finished. */
  async run(concurrency: number, durationMs: number): Promise<number> {
    const deadline = Date.now() + durationMs;
    let actions = 0;
    const loop = async () => {
      while (Date.now() < deadline) {
        // Not `actions += await ...`: that reads `actions` before the await and loses the other loops' counts.
        const finished = await this.runGroup();
        actions += finished;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, loop));
    return actions;
  }

  private async runGroup(): Promise<number> {
    const groupId = randomUUID();
    const conversationId = this.conversationIds[Math.floor(Math.random() * this.conversationIds.length)]!;
    const startedAt = new Date();
    await this.groups.insertOne({
      _id: groupId,
      business_id: BUSINESS_ID,
      conversation_id: conversationId,
      status: 'processing',
      started_at: startedAt,
      actions: Array.from({ length: ACTIONS_PER_GROUP }, (_, index) => ({ index, type: 'assign_label', status: index === 0 ? 'running' : 'pending', error: null, started_at: index === 0 ? startedAt : null })),
    });
    for (let index = 0; index < ACTIONS_PER_GROUP; index += 1) {
      const request: ChangeTagsRequest = {
        caller: { business_id: BUSINESS_ID, token_uuid: '' },
        conversation: { uuid: conversationId },
        tags: [{ uuid: `tag-${index % 2}` }],
        policy: AlreadyInStatePolicy.ALREADY_IN_STATE_NOOP,
      };
      await this.call(index % 2 === 0 ? 'assignTags' : 'removeTags', request);
      const finishedAt = new Date();
      await this.groups.findOneAndUpdate(
        { business_id: BUSINESS_ID, _id: groupId },
        { $set: { 'actions.$[done].finished_at': finishedAt, 'actions.$[done].status': 'succeeded', 'actions.$[next].started_at': finishedAt, 'actions.$[next].status': 'running' } },
        { arrayFilters: [{ 'done.index': index, 'done.status': 'running' }, { 'next.index': index + 1, 'next.status': 'pending' }], returnDocument: 'before' },
      );
    }
    await this.groups.findOneAndUpdate({ business_id: BUSINESS_ID, _id: groupId, status: 'processing' }, { $set: { status: 'succeeded', finished_at: new Date() } });
    return ACTIONS_PER_GROUP;
  }

  private call(method: 'assignTags' | 'removeTags', request: ChangeTagsRequest): Promise<ChangeTagsResponse> {
    return new Promise((resolve, reject) => this.service[method](request, (error, response) => (error ? reject(error) : resolve(response))));
  }
}

function formatRound(round: Round): string {
  const cpu = PROCESSES.map((name) => `${name} ${round.cpuMsPerAction[name].toFixed(2)}`).join(', ');
  return `${round.actionsPerSecond.toFixed(0)} actions/s; CPU ms per action: ${cpu} (all ${sum(Object.values(round.cpuMsPerAction)).toFixed(2)})`;
}

function medianRound(rounds: readonly Round[]): Round {
  const median = (values: number[]) => percentile(values.sort((a, b) => a - b), 50);
  return {
    actionsPerSecond: median(rounds.map((round) => round.actionsPerSecond)),
    cpuMsPerAction: Object.fromEntries(PROCESSES.map((name) => [name, median(rounds.map((round) => round.cpuMsPerAction[name]))])) as Record<FloorProcess, number>,
  };
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
