import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { connectMongo, disconnectMongo } from '@cmsg/dal';
import { createTestBusinessIn } from '@cmsg/testing';
import { type BareServer, startBareServer } from './bare-server-process';
import { startBenchStack } from './bench-stack';
import { type BenchmarkModule, median } from './benchmark-module';
import { insertBulkConversations, insertBulkTimeline } from './bulk-conversations';
import { monotonicMicros, printProcessProfiles } from './cpu-profile-files';
import type { FiguresRecorder } from './figures-recorder';
import { type LoadFigures, formatFigures, runLoad } from './load-test';
import { CpuMeter } from './process-cpu';

interface Options {
  duration: number;
  connections: number;
  rounds: number;
  warmup: number;
  conversations: number;
  'large-conversations': number;
  'messages-per-conversation': number;
  'timeline-items': number;
  scenarios: Scenario['kind'][];
  'cpu-profile': string | undefined;
}

const DEFAULTS = {
  duration: 10,
  connections: 10,
  rounds: 3,
  warmup: 2,
  conversations: 1000,
  'large-conversations': 100_000,
  'messages-per-conversation': 2,
  'timeline-items': 300,
};

const SCENARIOS = ['status', 'list', 'timeline', 'filtered', 'contact-search'] as const;

/** full: the product; hop: the bare hop (bare-hop.ts), status only; bare: the bare Express handler. */
type Path = 'full' | 'hop' | 'hop-limited' | 'bare';

interface Scenario {
  kind: (typeof SCENARIOS)[number];
  label: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** The paths measured, in the order each round runs them (bare last: the ratios' denominator). */
  paths: readonly Path[];
}

interface Run {
  load: LoadFigures;
  /** CPU seconds each process used during the run. */
  cpu: Record<string, number>;
}

/**
 * Issue 12: the full path (HTTP gateway -> gRPC -> conversations service -> MongoDB) beside a bare
 * Express handler in a process of its own that calls the same use cases on the same database,
 * for POST /conversation/status and GET /conversations?limit=100, at 1,000 conversations and (the
 * list) at 100,000 in one business. The paths' runs alternate, same connections and duration,
 * so a busy shared machine weighs on all alike; the figures are the medians over the rounds, with
 * the CPU each process spent per request. The status read also runs the bare hop (bare-hop.ts): the
 * design's two processes and gRPC call with nothing else, what the full path cannot cost less than;
 * and that hop behind the Redis rate limit, the least of the gateway's work on every request.
 * Issue 13 adds, at both sizes, a timeline page (GET /conversation/timeline, 50 items of a
 * conversation with messages, notes and events) and a filtered list page (GET /conversations with
 * inbox_status and tag: a third of the conversations pending, a quarter tagged).
 */
export const conversationReadsBenchmark: BenchmarkModule = {
  summary:
    'POST /conversation/status, GET /conversations?limit=100, a timeline page and a filtered list page: full path vs a bare Express handler on the same reads (and, for the status read, the bare gateway -> gRPC hop), alternating runs',
  options: [
    `--duration <s>               each run (default ${DEFAULTS.duration})`,
    `--connections <n>            concurrent connections of the load (default ${DEFAULTS.connections})`,
    `--rounds <n>                 full/bare pairs per scenario (default ${DEFAULTS.rounds})`,
    `--warmup <s>                 unmeasured run of each path before a scenario (default ${DEFAULTS.warmup})`,
    `--conversations <n>          in the business (default ${DEFAULTS.conversations})`,
    `--large-conversations <n>    then the list, timeline and filtered list again at this many; 0 skips it (default ${DEFAULTS['large-conversations']})`,
    `--messages-per-conversation <n>  messages of each conversation (default ${DEFAULTS['messages-per-conversation']})`,
    `--timeline-items <n>         messages, notes and events of the timeline conversation (default ${DEFAULTS['timeline-items']})`,
    `--scenarios <list>           any of ${SCENARIOS.join(', ')} (default all; every one but status runs at both sizes)`,
    "--cpu-profile <dir>          node --cpu-prof of the gateway, the conversations service and the bare servers, each summarised over its own path's runs",
  ],
  run: async (argv, figures) => runConversationReads(figures.parameters(parseOptions(argv)), figures),
};

function parseOptions(argv: string[]): Options {
  const names = [...Object.keys(DEFAULTS), 'scenarios', 'cpu-profile'];
  const { values } = parseArgs({ args: argv, options: Object.fromEntries(names.map((name) => [name, { type: 'string' as const }])), strict: true });
  const integer = (name: keyof typeof DEFAULTS, min: number): number => {
    const raw = values[name];
    if (raw === undefined) return DEFAULTS[name];
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be an integer >= ${min}, got ${raw}`);
    return value;
  };
  const cpuProfile = values['cpu-profile'];
  const scenarios = (values['scenarios'] ?? SCENARIOS.join(',')).split(',');
  if (scenarios.length === 0 || scenarios.some((scenario) => !(SCENARIOS as readonly string[]).includes(scenario))) {
    throw new Error(`--scenarios takes any of ${SCENARIOS.join(', ')}, got ${values['scenarios']}`);
  }
  return {
    duration: integer('duration', 1),
    connections: integer('connections', 1),
    rounds: integer('rounds', 1),
    warmup: integer('warmup', 0),
    conversations: integer('conversations', 1),
    'large-conversations': integer('large-conversations', 0),
    'messages-per-conversation': integer('messages-per-conversation', 0),
    'timeline-items': integer('timeline-items', 51),
    scenarios: scenarios as Options['scenarios'],
    'cpu-profile': cpuProfile === undefined ? undefined : path.resolve(process.env['INIT_CWD'] ?? process.cwd(), cpuProfile),
  };
}

async function runConversationReads(options: Options, figures: FiguresRecorder): Promise<void> {
  const profileDir = options['cpu-profile'];
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const nodeProfiling = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  // The product limit is 60 requests/minute per token; a load test measures throughput instead.
  // 100,000 conversations scanned by every list request would slow everyone else's tests on the shared MongoDB.
  const stack = await startBenchStack({ env: { RATE_LIMIT_PER_MINUTE: '100000000', LOG_LEVEL: 'warn' }, nodeArgs: nodeProfiling });
  const { description, mongo } = stack;
  const bareServers: Partial<Record<'bare' | 'hop-forward' | 'hop-service', BareServer>> = {};
  const measuredWindows: Record<Path, [number, number][]> = { full: [], hop: [], 'hop-limited': [], bare: [] };
  try {
    await connectMongo(description.env['MONGODB_URI']!);
    const tag = randomUUID();
    const business = await createTestBusinessIn(description, (seed) => {
      seed.tags = [{ uuid: tag, name: 'bench', color: '#000' }];
      seed.attribute_definitions = [{ key: 'plan', type: 'list', options: ['free', 'gold'] }];
    });
    const bulk = { businessId: business.businessId, messages: options['messages-per-conversation'], attributes: filteredAttributes(tag) };
    const [statusConversation] = await insertBulkConversations({ ...bulk, from: 0, count: options.conversations });
    await insertBulkTimeline({ businessId: business.businessId, conversationId: statusConversation!, items: options['timeline-items'] });
    const mongodbUri = description.env['MONGODB_URI']!;
    const bare = (bareServers.bare = await startBareServer(
      { role: 'express', mongodbUri, businessId: business.businessId, signingSecret: description.env['SIGNING_SECRET']! },
      nodeProfiling,
    ));
    const hopService = (bareServers['hop-service'] = await startBareServer({ role: 'grpc-service', mongodbUri, businessId: business.businessId }, nodeProfiling));
    const hopForward = (bareServers['hop-forward'] = await startBareServer(
      { role: 'grpc-forward', serviceAddress: hopService.address, businessId: business.businessId, redisUrl: description.env['REDIS_URL']! },
      nodeProfiling,
    ));
    const urls: Record<Path, string> = { full: `${description.gatewayUrls[0]}/v1/${business.slug}`, hop: hopForward.url, 'hop-limited': `${hopForward.url}/limited`, bare: bare.url };
    const headers = { authorization: `Bearer ${business.token}`, 'content-type': 'application/json' };
    const meter = new CpuMeter({
      gateway: description.pids['gateway-1']!,
      conversations: description.pids['conversations']!,
      'hop-forward': hopForward.pid,
      'hop-service': hopService.pid,
      bare: bare.pid,
      mongo: mongo.pid,
    });
    const measure = (scenario: Scenario) => measureScenario(scenario, urls, headers, meter, options, figures, measuredWindows);

    console.log(
      `\nconversation reads: ${options.connections} connections, ${options.rounds} rounds of ${options.duration} s per path (alternating, ${options.warmup} s warm-up each)`,
    );
    const status: Scenario = {
      kind: 'status',
      label: `POST /conversation/status at ${options.conversations} conversations`,
      method: 'POST',
      path: '/conversation/status',
      body: JSON.stringify({ conversation: { uuid: statusConversation } }),
      paths: ['full', 'hop', 'hop-limited', 'bare'],
    };
    if (options.scenarios.includes('status')) {
      await expectAnswer(urls, headers, status, (body) => body.conversation?.uuid === statusConversation);
      await measure(status);
    }
    await measureSized(urls, headers, { ...bulk, timelineConversation: statusConversation!, tag }, options, measure);
  } finally {
    for (const server of Object.values(bareServers)) await server.stop();
    await disconnectMongo();
    await stack.stop();
  }
  if (profileDir) {
    const barePids = Object.fromEntries(Object.entries(bareServers).map(([name, server]) => [name, server.pid]));
    const fullPids = { gateway: description.pids['gateway-1']!, conversations: description.pids['conversations']! };
    // Each process over the runs of its own path: their idle pollers would otherwise blur the comparison.
    const windows = { gateway: measuredWindows.full, conversations: measuredWindows.full, 'hop-forward': measuredWindows.hop, 'hop-service': measuredWindows.hop, bare: measuredWindows.bare };
    printProcessProfiles(profileDir, { ...fullPids, ...barePids }, windows, "over its path's runs");
  }
}

/** Conversation i: pending when i is a multiple of 3, tagged when a multiple of 4 (the filtered page matches every 12th). */
function filteredAttributes(tag: string) {
  return (index: number) => ({ inbox_status: index % 3 === 0 ? 'pending' : 'resolved', tag_ids: index % 4 === 0 ? [tag] : [] });
}

interface SizedData {
  businessId: string;
  messages: number;
  attributes: (index: number) => { inbox_status?: string; tag_ids?: string[] };
  timelineConversation: string;
  tag: string;
}

/** The scenarios whose cost could grow with the business, at its size, then (after inserting the rest) at the large size. */
async function measureSized(
  urls: Record<Path, string>,
  headers: Record<string, string>,
  data: SizedData,
  options: Options,
  measure: (scenario: Scenario) => Promise<void>,
): Promise<void> {
  const scenariosAt = (count: number): [Scenario, (body: any) => boolean][] => {
    const pageOf = (size: number) => (body: any) => body.items?.length === size;
    const all: [Scenario, (body: any) => boolean][] = [
      [
        { kind: 'list', label: `GET /conversations?limit=100 at ${count} conversations`, method: 'GET', path: '/conversations?limit=100', paths: ['full', 'bare'] },
        pageOf(Math.min(100, count)),
      ],
      [
        {
          kind: 'timeline',
          label: `GET /conversation/timeline?limit=50 (${options['timeline-items']} items) at ${count} conversations`,
          method: 'GET',
          path: `/conversation/timeline?conversation_uuid=${data.timelineConversation}&limit=50`,
          paths: ['full', 'bare'],
        },
        pageOf(50),
      ],
      [
        {
          kind: 'filtered',
          label: `GET /conversations?inbox_status=pending&tag=..&limit=50 at ${count} conversations`,
          method: 'GET',
          path: `/conversations?inbox_status=pending&tag=${data.tag}&limit=50`,
          paths: ['full', 'bare'],
        },
        pageOf(Math.min(50, Math.ceil(count / 12))),
      ],
      [
        {
          kind: 'contact-search',
          label: `POST /contacts/search (attributes.plan = gold AND tag) limit 50 at ${count} contacts`,
          method: 'POST',
          path: '/contacts/search',
          body: JSON.stringify({
            filter: { and: [{ field: 'attributes.plan', op: 'eq', value: 'gold' }, { field: 'tag', op: 'eq', value: data.tag }] },
            limit: 50,
          }),
          paths: ['full', 'bare'],
        },
        // Every 5th contact is gold and every 4th tagged: every 20th matches.
        pageOf(Math.min(50, Math.ceil(count / 20))),
      ],
    ];
    return all.filter(([scenario]) => options.scenarios.includes(scenario.kind));
  };
  for (const [scenario, isRight] of scenariosAt(options.conversations)) {
    await expectAnswer(urls, headers, scenario, isRight);
    await measure(scenario);
  }

  const large = options['large-conversations'];
  const sized = scenariosAt(large);
  if (large > options.conversations && sized.length > 0) {
    const started = Date.now();
    await insertBulkConversations({ ...data, from: options.conversations, count: large - options.conversations });
    const seconds = (Date.now() - started) / 1000;
    console.log(`\ninserted ${large - options.conversations} more conversations (and contacts, ${data.messages} messages each) in ${seconds.toFixed(1)} s`);
    for (const [scenario, isRight] of sized) {
      await expectAnswer(urls, headers, scenario, isRight);
      await measure(scenario);
    }
  }
}

async function measureScenario(
  scenario: Scenario,
  urls: Record<Path, string>,
  headers: Record<string, string>,
  meter: CpuMeter,
  options: Options,
  figures: FiguresRecorder,
  measuredWindows: Record<Path, [number, number][]>,
): Promise<void> {
  const load = (target: Path, duration: number) =>
    runLoad({ url: `${urls[target]}${scenario.path}`, method: scenario.method, body: scenario.body, headers, connections: options.connections, duration });
  console.log(`\n${scenario.label}`);
  if (options.warmup > 0) for (const target of scenario.paths) await load(target, options.warmup);
  const runs: Record<Path, Run[]> = { full: [], hop: [], 'hop-limited': [], bare: [] };
  for (let round = 1; round <= options.rounds; round += 1) {
    for (const target of scenario.paths) {
      meter.start();
      const startedAt = monotonicMicros();
      const figuresOfRun = await load(target, options.duration);
      measuredWindows[target].push([startedAt, monotonicMicros()]);
      const run = { load: figuresOfRun, cpu: meter.stop() };
      runs[target].push(run);
      console.log(`${formatFigures(`  round ${round} ${target}`, run.load)}   CPU/request ${formatCpu(run)}`);
    }
  }
  const median = Object.fromEntries(scenario.paths.map((target) => [target, medianLoad(runs[target].map((run) => run.load))])) as Partial<Record<Path, LoadFigures>>;
  const bare = median.bare!;
  for (const target of scenario.paths) console.log(formatFigures(`  median ${PATH_LABELS[target]}`, median[target]!));
  for (const target of scenario.paths) {
    figures.recordLoad(`${scenario.label}, ${target} path (median of ${options.rounds})`, median[target]!);
    for (const [process, seconds] of Object.entries(cpuPerRequest(runs[target]))) {
      figures.record(`${scenario.label}, ${target} path: ${process} CPU per request`, seconds * 1e6, 'µs');
    }
    if (target === 'bare') continue;
    const ratios = runs[target].map((run, index) => run.load.requestsPerSecond / runs.bare[index]!.load.requestsPerSecond);
    const ratio = median[target]!.requestsPerSecond / bare.requestsPerSecond;
    const latencyRatio = median[target]!.p50Ms / Math.max(bare.p50Ms, 0.01);
    console.log(`  ${target}/bare throughput ${ratio.toFixed(2)}x (rounds ${ratios.map((value) => value.toFixed(2)).join(', ')}), p50 ${latencyRatio.toFixed(2)}x`);
    figures.record(`${scenario.label}: ${target}/bare throughput ratio`, ratio, 'x');
    figures.record(`${scenario.label}: ${target}/bare p50 latency ratio`, latencyRatio, 'x');
  }
}

const PATH_LABELS: Record<Path, string> = {
  full: 'full path',
  hop: 'bare hop (Express -> gRPC -> use case)',
  'hop-limited': 'bare hop with the Redis rate limit',
  bare: 'bare Express',
};

/** CPU seconds per request of each process over all the runs of one path. */
function cpuPerRequest(runs: Run[]): Record<string, number> {
  const requests = runs.reduce((sum, run) => sum + run.load.total, 0);
  const totals: Record<string, number> = {};
  for (const run of runs) for (const [name, seconds] of Object.entries(run.cpu)) totals[name] = (totals[name] ?? 0) + seconds;
  return Object.fromEntries(Object.entries(totals).map(([name, seconds]) => [name, requests > 0 ? seconds / requests : Number.NaN]));
}

function formatCpu(run: Run): string {
  return Object.entries(run.cpu)
    .map(([name, seconds]) => `${name} ${run.load.total > 0 ? ((seconds * 1e6) / run.load.total).toFixed(0) : '-'} µs`)
    .join(', ');
}

function medianLoad(loads: LoadFigures[]): LoadFigures {
  return {
    requestsPerSecond: median(loads.map((load) => load.requestsPerSecond)),
    p50Ms: median(loads.map((load) => load.p50Ms)),
    p99Ms: median(loads.map((load) => load.p99Ms)),
    total: loads.reduce((sum, load) => sum + load.total, 0),
    non2xx: loads.reduce((sum, load) => sum + load.non2xx, 0),
    errors: loads.reduce((sum, load) => sum + load.errors, 0),
  };
}

/** Both paths answer the scenario's request correctly before it is measured. */
async function expectAnswer(urls: Record<Path, string>, headers: Record<string, string>, scenario: Scenario, isRight: (body: any) => boolean): Promise<void> {
  for (const target of scenario.paths) {
    const response = await fetch(`${urls[target]}${scenario.path}`, { method: scenario.method, headers, body: scenario.body });
    const body = await response.json();
    if (response.status !== 200 || !isRight(body)) throw new Error(`${target} path: ${scenario.method} ${scenario.path} answered ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
  }
}
