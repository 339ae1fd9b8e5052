import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { connectMongo, disconnectMongo } from '@cmsg/dal';
import { type ApiClient, createTestBusinessIn, startFakes } from '@cmsg/testing';
import { LocalStack } from '@cmsg/testing/local-stack';
import mongoose from 'mongoose';
import { ACTIONS_PER_GROUP, acceptedToLastAction, seedActionGroupTargets, submitAtFixedRate, waitForGroups } from './action-group-load';
import { reportCallsPerUnit, reportEventLoopDelay, reportP99Buckets, scrapeAppMetrics } from './app-metrics';
import { type BenchmarkModule, median, percentile } from './benchmark-module';
import { runActionFloor } from './action-floor.bench';
import { FiguresRecorder } from './figures-recorder';
import { CpuMeter, infraServerPids } from './process-cpu';
import { monotonicMicros, printProcessProfiles } from './cpu-profile-files';

interface Options {
  /** Target of the full-rate run, in actions per second (the half-rate run takes half). */
  rate: number;
  duration: number;
  conversations: number;
  cpuProf: string | undefined;
  /** Pairs of (action-floor round, full-rate run) measured alternately; undefined: the half- and full-rate runs. */
  besideFloor: number | undefined;
  /** The channel's max_messages_per_second (seed), also the fake Cloud API's throughput for its number. */
  channelRate: number;
}

/** The floor's round beside the product's run: the product answers its ratios to the floor measured just before it. */
interface BesideFloorPair {
  floor_actions_per_s: number;
  floor_cpu_ms_per_action: number;
  product_actions_per_s: number;
  product_cpu_ms_per_action: number;
  /** product / floor: 1 would be the floor's throughput. */
  actions_per_s_ratio: number;
  /** product / floor: how many times the floor's CPU an action costs. */
  cpu_per_action_ratio: number;
}

/** One run's figures; every name says its unit. */
interface RunFigures {
  name: string;
  target_actions_per_s: number;
  duration_s: number;
  groups_submitted: number;
  groups_accepted: number;
  groups_refused: number;
  /** Groups stored for the run although their submission was refused (a deadline that expired after the command was produced). */
  groups_refused_but_run: number;
  groups_completed: number;
  /** Still processing when the drain limit ran out (not in the latency percentiles). */
  groups_unfinished: number;
  groups_failed: number;
  actions_completed: number;
  /** Actions finished between the first submission and the end of the submission window, per second. */
  actions_per_s_in_window: number;
  /** Every completed action over first submission to last action finished. */
  actions_per_s_overall: number;
  submit_latency_p50_ms: number;
  submit_latency_p99_ms: number;
  accepted_to_last_action_p50_ms: number;
  accepted_to_last_action_p99_ms: number;
  accepted_to_last_action_max_ms: number;
  /** From the 202 to the group's first action starting in the runner (Kafka, the per-conversation queue). */
  accepted_to_first_start_p50_ms: number;
  /** How long one action took in the runner (started_at to finished_at), by type. */
  action_duration_p50_ms: Record<string, number>;
  wall_s: number;
  cpu_percent_of_one_core: Record<string, number>;
}

/** How long a run may take to finish its backlog after the submission window. */
const DRAIN_LIMIT_MS = 180_000;

async function runAtRate(name: string, api: ApiClient, businessId: string, conversations: string[], actionsPerSecond: number, options: Options, pids: Record<string, number>, offset: number): Promise<RunFigures> {
  console.log(`\n${name}: ${actionsPerSecond} actions/s (${actionsPerSecond / ACTIONS_PER_GROUP} groups/s) for ${options.duration} s`);
  const meter = new CpuMeter(pids);
  meter.start();
  const benchCpuBefore = process.cpuUsage();
  const wallBefore = Date.now();
  const since = new Date(wallBefore - 1000);
  const run = await submitAtFixedRate(api, conversations, actionsPerSecond / ACTIONS_PER_GROUP, options.duration, offset);
  console.log(`  ${run.accepted.length} groups accepted (${run.refused} refused); waiting for them to finish`);
  const { accepted: stored, others: refusedButRun } = await waitForGroups(
    businessId,
    run.accepted.map((group) => group.uuid),
    since,
    DRAIN_LIMIT_MS,
  );
  const wall = (Date.now() - wallBefore) / 1000;
  const used = meter.stop();
  const benchCpu = process.cpuUsage(benchCpuBefore);
  const cpu: Record<string, number> = { 'load-generator': Math.round(((benchCpu.user + benchCpu.system) / 1e6 / wall) * 100) };
  for (const [name, seconds] of Object.entries(used)) cpu[name] = Math.round((seconds / wall) * 100);

  const byUuid = new Map(stored.map((group) => [group._id, group]));
  const completion = acceptedToLastAction(run.accepted, stored);
  const firstStart: number[] = [];
  const durations = new Map<string, number[]>();
  let failed = 0;
  let actionsInWindow = 0;
  let actionsCompleted = 0;
  let lastEnd = 0;
  for (const submission of run.accepted) {
    const group = byUuid.get(submission.uuid);
    if (!group || group.status === 'processing') continue;
    if (group.status === 'failed') failed += 1;
    const ends = group.actions.map((action) => (action.finished_at ?? group.finished_at)!.getTime());
    actionsCompleted += ends.length;
    actionsInWindow += ends.filter((end) => end <= run.windowEnd).length;
    lastEnd = Math.max(lastEnd, ...ends);
    if (group.started_at) firstStart.push(group.started_at.getTime() - submission.acceptedAt);
    for (const action of group.actions) {
      if (!action.started_at || !action.finished_at) continue;
      const list = durations.get(action.type) ?? [];
      list.push(action.finished_at.getTime() - action.started_at.getTime());
      durations.set(action.type, list);
    }
  }
  firstStart.sort((a, b) => a - b);
  const durationP50 = Object.fromEntries([...durations].map(([type, list]) => [type, percentile(list.sort((a, b) => a - b), 50)]));
  const submit = run.accepted.map((group) => group.acceptedAt - group.sentAt).sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    name,
    target_actions_per_s: actionsPerSecond,
    duration_s: options.duration,
    groups_submitted: run.submitted,
    groups_accepted: run.accepted.length,
    groups_refused: run.refused,
    groups_refused_but_run: refusedButRun,
    groups_completed: completion.length,
    groups_unfinished: run.accepted.length - completion.length,
    groups_failed: failed,
    actions_completed: actionsCompleted,
    actions_per_s_in_window: round(actionsInWindow / options.duration),
    actions_per_s_overall: round(actionsCompleted / Math.max(0.001, (lastEnd - run.startedAt) / 1000)),
    submit_latency_p50_ms: percentile(submit, 50),
    submit_latency_p99_ms: percentile(submit, 99),
    accepted_to_last_action_p50_ms: percentile(completion, 50),
    accepted_to_last_action_p99_ms: percentile(completion, 99),
    accepted_to_last_action_max_ms: completion[completion.length - 1] ?? Number.NaN,
    accepted_to_first_start_p50_ms: percentile(firstStart, 50),
    action_duration_p50_ms: durationP50,
    wall_s: round(wall),
    cpu_percent_of_one_core: cpu,
  };
}

function printRun(figures: RunFigures): void {
  const ms = (value: number) => `${Math.round(value)} ms`;
  console.log(`  groups               ${figures.groups_submitted} submitted, ${figures.groups_accepted} accepted, ${figures.groups_refused} refused (${figures.groups_refused_but_run} of them stored and run anyway), ${figures.groups_completed} completed (${figures.groups_failed} failed), ${figures.groups_unfinished} unfinished after ${DRAIN_LIMIT_MS / 1000} s`);
  console.log(`  actions/s            ${figures.actions_per_s_in_window} finished within the ${figures.duration_s} s window; ${figures.actions_per_s_overall} first submission to last action`);
  console.log(`  202 latency          p50 ${ms(figures.submit_latency_p50_ms)}   p99 ${ms(figures.submit_latency_p99_ms)}`);
  console.log(
    `  202 -> last action   p50 ${ms(figures.accepted_to_last_action_p50_ms)}   p99 ${ms(figures.accepted_to_last_action_p99_ms)}   max ${ms(figures.accepted_to_last_action_max_ms)}`,
  );
  console.log(`  202 -> first start   p50 ${ms(figures.accepted_to_first_start_p50_ms)}`);
  console.log(`  action p50 by type   ${Object.entries(figures.action_duration_p50_ms).map(([type, value]) => `${type} ${ms(value)}`).join(', ')}`);
  console.log(`  CPU (% of one core, over ${figures.wall_s} s)  ${Object.entries(figures.cpu_percent_of_one_core).map(([name, percent]) => `${name} ${percent}`).join(', ')}`);
}

async function runActionGroupsBenchmark(options: Options, recorder: FiguresRecorder): Promise<void> {
  recorder.parameters({ ...options, actions_per_group: ACTIONS_PER_GROUP });
  const fakes = await startFakes();
  // The product limit is 60 requests a minute per token; a benchmark measures throughput instead.
  const env: Record<string, string> = { ...fakes.env, RATE_LIMIT_PER_MINUTE: '100000000', LOG_LEVEL: 'warn' };
  const stack = new LocalStack({
    env,
    ...(options.cpuProf ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${options.cpuProf}`] } : {}),
    fakes: { chatApiBaseUrl: fakes.chatApiBaseUrl, aiBaseUrl: fakes.aiBaseUrl },
  });
  // With --cpu-prof: each app's profile is summarised over the full-rate run (or the pairs' product runs).
  let profiledApps: Record<string, number> = {};
  const profiledWindows: [number, number][] = [];
  const profiled = async <T>(run: () => Promise<T>): Promise<T> => {
    const start = monotonicMicros();
    try {
      return await run();
    } finally {
      profiledWindows.push([start, monotonicMicros()]);
    }
  };
  try {
    const description = await stack.start();
    profiledApps = description.pids;
    await connectMongo(description.env['MONGODB_URI']!);
    let conversations: string[] = [];
    const business = await createTestBusinessIn(description, (seed) => {
      seed.channels![0]!.max_messages_per_second = options.channelRate;
      conversations = seedActionGroupTargets(seed, options.conversations);
    });
    fakes.cloudApi.setThroughput(business.seed.channels![0]!.phone_number_id, options.channelRate);
    const pids = { ...description.pids, ...infraServerPids(description.env) };
    console.log(`stack ${description.runId} ready; seeded ${conversations.length} conversations on a channel of ${options.channelRate} messages/s`);
    if (options.besideFloor !== undefined) {
      await runBesideFloor(options, options.besideFloor, recorder, (name, rate, offset) => {
        const run = () => runAtRate(name, business.api, business.businessId, conversations, rate, options, pids, offset);
        return offset === 0 ? run() : profiled(run);
      });
      return;
    }
    const runs: RunFigures[] = [];
    // Half rate first: a full-rate run the stack cannot keep up with leaves a backlog behind it.
    for (const [name, rate] of [
      ['half rate', options.rate / 2],
      ['full rate', options.rate],
    ] as const) {
      const metricsBefore = await scrapeAppMetrics(description.metricsUrls);
      const run = () => runAtRate(name, business.api, business.businessId, conversations, rate, options, pids, runs.length * 1_000_000);
      const figures = rate === options.rate ? await profiled(run) : await run();
      printRun(figures);
      const metricsAfter = await scrapeAppMetrics(description.metricsUrls);
      reportCallsPerUnit(metricsBefore, metricsAfter, figures.actions_completed, 'action', recorder, `${name}: `);
      reportEventLoopDelay(metricsAfter, recorder, `${name}: `);
      reportP99Buckets(metricsBefore, metricsAfter, recorder, `${name}: `);
      runs.push(figures);
    }
    for (const run of runs) recordRun(recorder, run);
  } finally {
    await stack.stop();
    // The run's database: the local server keeps it in memory for every other user otherwise.
    if (mongoose.connection.readyState === mongoose.ConnectionStates.connected) await mongoose.connection.dropDatabase();
    await disconnectMongo();
    await fakes.stop();
  }
  // Node writes a profile when its process exits, so only after the stack stopped.
  if (options.cpuProf) printProcessProfiles(options.cpuProf, profiledApps, Object.fromEntries(Object.keys(profiledApps).map((name) => [name, profiledWindows])), 'over the full-rate run(s)');
}

/**
 * `--beside-floor N`: N pairs of one action-floor round and one full-rate run of the product, one
 * after the other in this invocation (the stack idles while the floor runs), so both see the same
 * machine; each pair's ratios and their medians are printed and recorded.
 */
async function runBesideFloor(options: Options, pairs: number, recorder: FiguresRecorder, runProduct: (name: string, rate: number, offset: number) => Promise<RunFigures>): Promise<void> {
  // A freshly started stack's first groups wait for the consumers to join (issue 30): not a pair's business.
  const warmUp = await runProduct('warm-up (not counted)', Math.max(ACTIONS_PER_GROUP, options.rate / 4), 0);
  console.log(`  warm-up: ${warmUp.actions_completed} actions, 202 -> first start p50 ${Math.round(warmUp.accepted_to_first_start_p50_ms)} ms`);
  const results: BesideFloorPair[] = [];
  for (let pair = 1; pair <= pairs; pair += 1) {
    // The floor's own figures are its business: only the ratios are this benchmark's.
    const floor = await runActionFloor({ duration: options.duration, rounds: 1, concurrency: 64, conversations: options.conversations }, new FiguresRecorder('action-floor'));
    const product = await runProduct(`pair ${pair}, product`, options.rate, pair * 1_000_000);
    printRun(product);
    const floorCpu = Object.values(floor.cpuMsPerAction).reduce((total, value) => total + value, 0);
    const productCpu = productCpuMsPerAction(product);
    const result: BesideFloorPair = {
      floor_actions_per_s: floor.actionsPerSecond,
      floor_cpu_ms_per_action: floorCpu,
      product_actions_per_s: product.actions_per_s_overall,
      product_cpu_ms_per_action: productCpu,
      actions_per_s_ratio: product.actions_per_s_overall / floor.actionsPerSecond,
      cpu_per_action_ratio: productCpu / floorCpu,
    };
    results.push(result);
    console.log(`  pair ${pair}: ${formatPair(result)}`);
  }
  const medians = Object.fromEntries((Object.keys(results[0]!) as (keyof BesideFloorPair)[]).map((field) => [field, median(results.map((result) => result[field]))])) as unknown as BesideFloorPair;
  console.log(`\nbeside the floor, median of ${pairs} pairs: ${formatPair(medians)}`);
  for (const [field, value] of Object.entries(medians)) recorder.record(`beside floor (median of ${pairs}): ${field}`, value, field.endsWith('_ratio') ? 'ratio' : field.endsWith('_per_s') ? 'actions/s' : 'ms');
}

/** CPU of every process of the stack (apps, MongoDB, Kafka, Redis; not the load generator) per completed action. */
function productCpuMsPerAction(run: RunFigures): number {
  const percent = Object.entries(run.cpu_percent_of_one_core)
    .filter(([name]) => name !== 'load-generator')
    .reduce((total, [, value]) => total + value, 0);
  return ((percent / 100) * run.wall_s * 1000) / Math.max(1, run.actions_completed);
}

function formatPair(pair: BesideFloorPair): string {
  return (
    `actions/s ${pair.product_actions_per_s.toFixed(0)} vs floor ${pair.floor_actions_per_s.toFixed(0)} (${pair.actions_per_s_ratio.toFixed(2)}x); ` +
    `CPU per action ${pair.product_cpu_ms_per_action.toFixed(2)} ms vs floor ${pair.floor_cpu_ms_per_action.toFixed(2)} ms (${pair.cpu_per_action_ratio.toFixed(1)}x)`
  );
}

const unitOf = (field: string) => (field.endsWith('_per_s') ? 'actions/s' : field.endsWith('_ms') ? 'ms' : field.endsWith('_s') ? 's' : 'count');

/** Every number of a run as a figure named `<run>: <field>` (the field names carry their unit). */
function recordRun(recorder: FiguresRecorder, run: RunFigures): void {
  for (const [field, value] of Object.entries(run)) {
    if (typeof value === 'number') recorder.record(`${run.name}: ${field}`, value, unitOf(field));
    else if (typeof value === 'object') for (const [key, inner] of Object.entries(value as Record<string, number>)) recorder.record(`${run.name}: ${field} ${key}`, inner, field.endsWith('_ms') ? 'ms' : '%');
  }
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: { rate: { type: 'string' }, duration: { type: 'string' }, conversations: { type: 'string' }, 'cpu-prof': { type: 'string' }, 'beside-floor': { type: 'string' }, 'channel-rate': { type: 'string' } },
    strict: true,
  });
  const positive = (name: 'rate' | 'duration' | 'conversations' | 'beside-floor' | 'channel-rate', fallback: number) => {
    const value = values[name] === undefined ? fallback : Number(values[name]);
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, got ${String(values[name])}`);
    return value;
  };
  return {
    rate: positive('rate', 1000),
    duration: positive('duration', 60),
    conversations: positive('conversations', 1000),
    cpuProf: values['cpu-prof'] === undefined ? undefined : profileDirectory(values['cpu-prof']),
    besideFloor: values['beside-floor'] === undefined ? undefined : positive('beside-floor', 1),
    channelRate: channelRateOf(positive('channel-rate', UPGRADED_TIER_MESSAGES_PER_SECOND)),
  };
}

/**
 * Every group sends one message, and the send engine paces a channel's sends to its
 * max_messages_per_second: at the default tier's 80, one number holds groups to 80/s (400 actions/s)
 * whatever the stack's CPU. The benchmark measures the stack, so its channel is on the upgraded tier.
 */
const UPGRADED_TIER_MESSAGES_PER_SECOND = 1000;

function channelRateOf(rate: number): number {
  if (rate > UPGRADED_TIER_MESSAGES_PER_SECOND) throw new Error(`--channel-rate is a channel's max_messages_per_second: 1..${UPGRADED_TIER_MESSAGES_PER_SECOND}, got ${rate}`);
  return rate;
}

/** npm runs the benchmark from the workspace root: a relative directory is the caller's. */
function profileDirectory(directory: string): string {
  const resolved = path.resolve(process.env['INIT_CWD'] ?? process.cwd(), directory);
  mkdirSync(resolved, { recursive: true });
  return resolved;
}

export const actionGroupsBenchmark: BenchmarkModule = {
  summary: 'groups of 5 non-AI actions (tag, note, mailbox, text send, status) at a fixed rate, then at half of it: actions/s, 202 p50/p99, 202 -> last action p50/p99, CPU',
  options: [
    '--rate <n>           actions/s of the full-rate run (default 1000; the second run takes half)',
    '--duration <s>       submission window of each run (default 60)',
    '--conversations <n>  conversations seeded (default 1000)',
    '--cpu-prof <dir>     profile every app (node --cpu-prof) and print a summary of each over the full-rate run(s)',
    '--beside-floor <n>   instead: n pairs of an action-floor round and a full-rate run, alternately; the ratios of actions/s and CPU per action to the floor',
    `--channel-rate <n>   the channel's max_messages_per_second, 1..1000 (default ${UPGRADED_TIER_MESSAGES_PER_SECOND}, the upgraded tier: at 80 its pacing holds a group with a send to 80/s)`,
  ],
  run: (argv, figures) => runActionGroupsBenchmark(parseOptions(argv), figures),
};
