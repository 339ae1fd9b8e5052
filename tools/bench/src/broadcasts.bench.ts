import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Broadcast, BroadcastAudience, SendWindow } from '@cmsg/proto';
import { ACTIONS_PER_GROUP, type SubmissionRun, acceptedToLastAction, sequenceOfLiveText, submitAtFixedRate, waitForGroups } from './action-group-load';
import { runActionFloor } from './action-floor.bench';
import { type AppMetrics, growthPerUnit, scrapeAppMetrics, writeCommandsOf } from './app-metrics';
import { type BenchmarkModule, percentile } from './benchmark-module';
import { AUDIENCE_FILTER, BroadcastBenchStack, type BroadcastBenchStackOptions } from './broadcast-bench-stack';
import { monotonicMicros, printProcessProfiles } from './cpu-profile-files';
import type { FiguresRecorder } from './figures-recorder';
import { CpuMeter } from './process-cpu';
import { sampleResidentMemory } from './process-memory';
import { type ProviderArrival, acceptedPerBucket, acceptedRateBetween, arrivalFigures } from './provider-arrivals';

const SCENARIOS = ['pacing', 'ceiling', 'replicas', 'priority', 'memory'] as const;
type Scenario = (typeof SCENARIOS)[number];

/** Recipients (contacts of the audience) of each scenario unless --recipients says otherwise. */
const RECIPIENTS: Record<Scenario, number> = { pacing: 20_000, ceiling: 100_000, replicas: 100_000, priority: 100_000, memory: 100_000 };

const DEFAULTS = {
  'pacing-rate': 80,
  'ceiling-rate': 1000,
  warmup: 15,
  measure: 60,
  'live-rate': 20,
  'live-conversations': 100,
  'floor-duration': 10,
  'floor-rounds': 3,
};

interface Options extends Record<keyof typeof DEFAULTS, number> {
  scenarios: Scenario[];
  /** memory: whether the file's phones are new (each row creates its contact) or the phones of contacts written beforehand. */
  fileContacts: 'new' | 'existing';
  /** Overrides every scenario's audience size. */
  recipients: number | undefined;
  cpuProfile: string | undefined;
}

const FINAL = new Set(['completed', 'cancelled', 'failed']);
const MIB = 1024 * 1024;
/** How long the groups submitted beside a broadcast may take to finish after the window. */
const GROUP_DRAIN_LIMIT_MS = 120_000;
/** How long freezing an audience may take before the scenario gives up. */
const FREEZE_LIMIT_MS = 30 * 60_000;

export const broadcastsBenchmark: BenchmarkModule = {
  summary: 'broadcast sends through the send engine to the fake Cloud API: pacing, the ceiling (CPU per send), two runner replicas, live action groups beside a broadcast, memory of a large freeze',
  options: [
    `--scenarios <list>          any of ${SCENARIOS.join(', ')} (default all)`,
    `--recipients <n>            audience of every scenario (default ${Object.entries(RECIPIENTS).map(([name, count]) => `${name} ${count}`).join(', ')})`,
    `--pacing-rate <n>           the channel's max_messages_per_second in pacing (default ${DEFAULTS['pacing-rate']})`,
    `--ceiling-rate <n>          the channel's max_messages_per_second in ceiling, replicas, priority (default ${DEFAULTS['ceiling-rate']}, the most a channel takes)`,
    `--warmup <s>                sending before the measured window (default ${DEFAULTS.warmup})`,
    `--measure <s>               the measured window of ceiling, replicas, priority (default ${DEFAULTS.measure})`,
    `--live-rate <n>             actions/s of the action groups beside the broadcast in priority (default ${DEFAULTS['live-rate']})`,
    `--live-conversations <n>    conversations those groups act on (default ${DEFAULTS['live-conversations']})`,
    `--floor-duration <s>, --floor-rounds <n>  the action-floor run after ceiling (default ${DEFAULTS['floor-duration']} s, ${DEFAULTS['floor-rounds']} rounds)`,
    '--file-contacts new|existing  memory: rows of phones no contact has (default) or of contacts written beforehand',
    '--cpu-profile <dir>         node --cpu-prof of every app in ceiling, replicas and priority, summarised over the measured window',
  ],
  run: async (argv, figures) => {
    const options = parseOptions(argv);
    figures.parameters({ ...options, recipients: options.recipients ?? RECIPIENTS });
    if (options.cpuProfile) mkdirSync(options.cpuProfile, { recursive: true });
    let build = true;
    for (const scenario of options.scenarios) {
      console.log(`\n=== broadcasts: ${scenario} ===`);
      await SCENARIO_RUNS[scenario](options, new ScenarioFigures(scenario, figures), build);
      // The apps are built once a run.
      build = false;
    }
  },
};

const SCENARIO_RUNS: Record<Scenario, (options: Options, figures: ScenarioFigures, build: boolean) => Promise<void>> = {
  pacing: runPacing,
  ceiling: runCeiling,
  replicas: async (options, figures, build) => {
    await runCeilingScenario(options, figures, build, 2);
  },
  priority: runPriority,
  memory: runMemory,
};

function parseOptions(argv: string[]): Options {
  const names = [...Object.keys(DEFAULTS), 'scenarios', 'recipients', 'cpu-profile', 'file-contacts'];
  const { values } = parseArgs({ args: argv, options: Object.fromEntries(names.map((name) => [name, { type: 'string' as const }])), strict: true });
  const integer = (name: string, fallback: number, min = 1): number => {
    const raw = values[name];
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be an integer >= ${min}, got ${raw}`);
    return value;
  };
  const scenarios = (values['scenarios'] ?? SCENARIOS.join(',')).split(',');
  if (scenarios.some((scenario) => !(SCENARIOS as readonly string[]).includes(scenario))) throw new Error(`--scenarios takes any of ${SCENARIOS.join(', ')}, got ${values['scenarios']}`);
  const rates = { 'pacing-rate': integer('pacing-rate', DEFAULTS['pacing-rate']), 'ceiling-rate': integer('ceiling-rate', DEFAULTS['ceiling-rate']) };
  // The channel limit of CONTRACT 10.5.
  for (const [name, rate] of Object.entries(rates)) if (rate > 1000) throw new Error(`--${name} is a channel's max_messages_per_second: 1..1000, got ${rate}`);
  const cpuProfile = values['cpu-profile'];
  const fileContacts = values['file-contacts'] ?? 'new';
  if (fileContacts !== 'new' && fileContacts !== 'existing') throw new Error(`--file-contacts takes new or existing, got ${fileContacts}`);
  return {
    fileContacts,
    ...rates,
    warmup: integer('warmup', DEFAULTS.warmup, 0),
    measure: integer('measure', DEFAULTS.measure),
    'live-rate': integer('live-rate', DEFAULTS['live-rate']),
    'live-conversations': integer('live-conversations', DEFAULTS['live-conversations']),
    'floor-duration': integer('floor-duration', DEFAULTS['floor-duration']),
    'floor-rounds': integer('floor-rounds', DEFAULTS['floor-rounds']),
    scenarios: scenarios as Scenario[],
    recipients: values['recipients'] === undefined ? undefined : integer('recipients', 0),
    // npm runs scripts from the workspace root; a relative DIR means where npm was called from.
    cpuProfile: cpuProfile === undefined ? undefined : path.resolve(process.env['INIT_CWD'] ?? process.cwd(), cpuProfile),
  };
}

/** Prints a scenario's figures as it records them, named `<scenario>: <name>`. */
class ScenarioFigures {
  constructor(
    readonly scenario: Scenario,
    /** For figures another benchmark records under its own names (the action floor). */
    readonly recorder: FiguresRecorder,
  ) {}

  line(name: string, value: number, unit: string, digits = 0): void {
    const shown = Number.isFinite(value) ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : String(value);
    console.log(`  ${name.padEnd(60)} ${shown.padStart(12)} ${unit}`);
    this.recorder.record(`${this.scenario}: ${name}`, value, unit);
  }

  note(text: string): void {
    console.log(`  ${text}`);
  }
}

function recipientsOf(options: Options, scenario: Scenario): number {
  return options.recipients ?? RECIPIENTS[scenario];
}

function stackOptions(options: Options, scenario: Scenario, build: boolean, overrides: Partial<BroadcastBenchStackOptions> = {}): BroadcastBenchStackOptions {
  return { channelRate: options['ceiling-rate'], audience: recipientsOf(options, scenario), runnerReplicas: 1, liveConversations: 0, build, nodeArgs: [], ...overrides };
}

function profiling(options: Options): string[] {
  return options.cpuProfile ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfile}`] : [];
}

const secondsBetween = (from: string | undefined, to: string | undefined) => (from && to ? (Date.parse(to) - Date.parse(from)) / 1000 : Number.NaN);

function recordOutcome(figures: ScenarioFigures, broadcast: Broadcast): void {
  const counts = broadcast.counts!;
  figures.note(`broadcast ${broadcast.status}: ${counts.total} recipients, ${counts.sent} sent, ${counts.failed} failed, ${counts.skipped} skipped, ${counts.unknown} unknown, ${counts.pending} pending`);
  figures.line('recipients frozen', counts.total, 'recipients');
  figures.line('recipients sent', counts.sent, 'recipients');
  figures.line('recipients failed or unknown', counts.failed + counts.unknown, 'recipients');
  figures.line('freeze (created to running)', secondsBetween(broadcast.created_at, broadcast.started_at), 's', 1);
}

/** The accepted sends per bucket over the run (at most 60 buckets of whole seconds): ramp-up, stalls, the tail. */
function noteTimeline(figures: ScenarioFigures, arrivals: readonly ProviderArrival[]): void {
  const times = arrivals.map((arrival) => arrival.at_ms);
  if (times.length === 0) return;
  const bucketS = Math.max(1, Math.ceil((Math.max(...times) - Math.min(...times)) / 60_000));
  figures.note(`accepted sends per ${bucketS} s at the fake, from the first: ${acceptedPerBucket(arrivals, bucketS * 1000).join(' ')}`);
}

/** CPU of each process over `seconds` in which `units` were done: % of one core and ms per unit. */
function recordCpu(figures: ScenarioFigures, used: Record<string, number>, seconds: number, units: number, unit: string): Record<string, number> {
  const msPerUnit = Object.fromEntries(Object.entries(used).map(([name, cpuSeconds]) => [name, (cpuSeconds * 1000) / Math.max(1, units)]));
  for (const [name, cpuSeconds] of Object.entries(used)) {
    figures.line(`CPU per ${unit}, ${name}`, msPerUnit[name]!, 'ms', 2);
    figures.line(`CPU, ${name}`, (cpuSeconds / seconds) * 100, '% of one core', 0);
  }
  figures.line(`CPU per ${unit}, every process`, Object.values(msPerUnit).reduce((sum, ms) => sum + ms, 0), 'ms', 2);
  return msPerUnit;
}

/** CpuMeter of the stack's processes, the fakes' process and this one (the load runs here). */
function meterStack(stack: BroadcastBenchStack): { stop(): Record<string, number> } {
  const meter = new CpuMeter({ ...stack.pids, 'fakes (Cloud API, AI)': stack.fakes.pid });
  meter.start();
  const bench = process.cpuUsage();
  return {
    stop: () => {
      const used = process.cpuUsage(bench);
      return { ...meter.stop(), 'bench (load)': (used.user + used.system) / 1e6 };
    },
  };
}

/**
 * Per app, the MongoDB commands it sent and the time it waited on them (client-side: queueing in
 * the server included) per unit of work, by command, from the apps' own metrics: where the
 * server's time goes.
 */
function noteMongo(figures: ScenarioFigures, what: string, before: AppMetrics, after: AppMetrics, units: number, unit: string): void {
  const commands = growthPerUnit(before, after, 'cmsg_mongodb_operation_duration_seconds_count', 'command', units);
  const seconds = growthPerUnit(before, after, 'cmsg_mongodb_operation_duration_seconds_sum', 'command', units);
  for (const [app, byCommand] of Object.entries(commands)) {
    const shown = Object.entries(byCommand).map(([command, count]) => `${command} ${count.toFixed(2)} (${((seconds[app]?.[command] ?? 0) * 1000).toFixed(1)} ms)`);
    figures.note(`${what}: MongoDB commands (time waited) per ${unit}, ${app}: ${shown.join(', ')}`);
  }
}

/** Creates the broadcast and waits until its audience is frozen (it runs, or its send window holds it). */
async function freeze(stack: BroadcastBenchStack, figures: ScenarioFigures, audience: BroadcastAudience, sendWindow?: SendWindow): Promise<{ running: Broadcast; seconds: number }> {
  const before = await scrapeAppMetrics(stack.metricsUrls);
  const started = Date.now();
  const created = await stack.createBroadcast(`bench ${figures.scenario}`, audience, sendWindow);
  const running = await stack.waitForBroadcast(created.uuid, (broadcast) => broadcast.status !== 'preparing' && broadcast.status !== 'scheduled', FREEZE_LIMIT_MS, 250);
  const seconds = (Date.now() - started) / 1000;
  noteMongo(figures, 'freeze', before, await scrapeAppMetrics(stack.metricsUrls), running.counts!.total, 'recipient');
  if (running.status === 'preparing') figures.note(`still preparing after ${FREEZE_LIMIT_MS / 60_000} min`);
  return { running, seconds };
}

/**
 * pacing: the whole audience at the channel's rate, the fake Cloud API refusing (130429) what
 * goes over that rate for the number: the busiest second at the fake, the mean rate, the gaps,
 * and whether any recipient was sent twice.
 */
async function runPacing(options: Options, figures: ScenarioFigures, build: boolean): Promise<void> {
  const rate = options['pacing-rate'];
  const recipients = recipientsOf(options, 'pacing');
  const stack = await BroadcastBenchStack.start(stackOptions(options, 'pacing', build, { channelRate: rate }));
  try {
    figures.note(`${recipients} recipients at the channel's max_messages_per_second ${rate}; the fake Cloud API takes at most ${rate}/s for the number`);
    const meter = meterStack(stack);
    const metricsBefore = await scrapeAppMetrics(stack.metricsUrls);
    const startedAt = Date.now();
    const { running: created } = await freeze(stack, figures, { filter: AUDIENCE_FILTER });
    const limitMs = (recipients / rate) * 3_000 + 300_000;
    let final = await stack.waitForBroadcast(created.uuid, (broadcast) => FINAL.has(broadcast.status), limitMs);
    if (!FINAL.has(final.status)) {
      figures.note(`not finished after ${Math.round(limitMs / 1000)} s: cancelled, the figures cover what was sent`);
      final = await stack.cancelBroadcast(created.uuid);
    }
    const used = meter.stop();
    const seconds = (Date.now() - startedAt) / 1000;
    // Before the records are read: answering 20,000 of them holds the fake's loop for a while.
    const loop = await stack.fakes.loopDelay();
    const arrivals = await stack.sends('template');
    const sends = arrivalFigures(arrivals);
    recordOutcome(figures, final);
    figures.line('sending (running to completed)', secondsBetween(final.started_at, final.finished_at), 's', 1);
    figures.line('calls at the fake', sends.calls, 'calls');
    figures.line('accepted at the fake', sends.accepted, 'sends');
    figures.line('most calls in any 1 s window (<= rate)', sends.maxCallsInAnySecond, 'calls');
    figures.line('most accepted in any 1 s window', sends.maxAcceptedInAnySecond, 'sends');
    figures.line('calls refused 130429 by the fake', sends.throttled, 'calls');
    figures.line('calls refused otherwise', sends.otherRefusals, 'calls');
    figures.line('mean rate, first to last arrival', sends.meanAcceptedPerSecond, 'sends/s', 1);
    figures.line('gap between consecutive sends p50', sends.gapP50Ms, 'ms', 1);
    figures.line('gap between consecutive sends p99', sends.gapP99Ms, 'ms', 1);
    figures.line('first to last arrival', sends.durationMs / 1000, 's', 1);
    figures.line('recipients reached', sends.recipientsReached, 'recipients');
    figures.line('recipients accepted more than once (must be 0)', sends.acceptedMoreThanOnce, 'recipients');
    figures.line('recipients called more than once', sends.calledMoreThanOnce, 'recipients');
    const restamps = growthPerUnit(metricsBefore, await scrapeAppMetrics(stack.metricsUrls), 'cmsg_send_commit_restamps_total', 'priority', 1)['conversations']?.['broadcast'] ?? 0;
    figures.line('slots committed again (their commit answered late)', restamps, 'commits');
    noteTimeline(figures, arrivals);
    figures.note(`the fake Cloud API's process ${stack.fakes.raisedPriority ? 'ran at a raised CPU priority' : 'could not raise its CPU priority'}; its event loop ran late by:`);
    figures.line('fake Cloud API event loop delay p99', loop.p99Ms, 'ms', 1);
    figures.line('fake Cloud API event loop delay max', loop.maxMs, 'ms', 1);
    figures.note(`CPU from the create request to the end (${seconds.toFixed(0)} s, the freeze included):`);
    recordCpu(figures, used, seconds, sends.accepted, 'send');
  } finally {
    await stack.stop();
  }
}

/** What one measured window of a broadcast at the ceiling gave. */
interface CeilingWindow {
  sends: number;
  sendsPerSecond: number;
  seconds: number;
  /** CPU ms per send by process. */
  cpuMsPerSend: Record<string, number>;
  metricsBefore: AppMetrics;
  metricsAfter: AppMetrics;
  monotonicWindow: [number, number];
}

/**
 * A broadcast over the whole audience at the channel's rate: once it runs and `warmup` s more have
 * passed, the window of `measure` s (shorter if the broadcast ends first) in which `during` runs;
 * then it is cancelled. The sends of the window are counted at the fake, so CPU per send is the
 * CPU every process used in the window over the sends that arrived in it.
 */
async function broadcastAtCeiling(stack: BroadcastBenchStack, options: Options, figures: ScenarioFigures, during?: () => Promise<void>): Promise<CeilingWindow> {
  const { running } = await freeze(stack, figures, { filter: AUDIENCE_FILTER });
  figures.note(`running after a freeze of ${secondsBetween(running.created_at, running.started_at).toFixed(1)} s; ${options.warmup} s of warm-up`);
  await new Promise((resolve) => setTimeout(resolve, options.warmup * 1000));

  const metricsBefore = await scrapeAppMetrics(stack.metricsUrls);
  const meter = meterStack(stack);
  const from = Date.now();
  const monotonicFrom = monotonicMicros();
  const window = stack.waitForBroadcast(running.uuid, (broadcast) => FINAL.has(broadcast.status), options.measure * 1000, 2000);
  await Promise.all([window, during?.()]);
  const to = Date.now();
  const monotonicTo = monotonicMicros();
  const used = meter.stop();
  const metricsAfter = await scrapeAppMetrics(stack.metricsUrls);
  const final = await stack.cancelBroadcast(running.uuid);
  if (FINAL.has((await window).status)) figures.note(`the broadcast ended ${((to - from) / 1000).toFixed(1)} s into the window: a larger --recipients measures longer`);

  const arrivals = await stack.sends('template');
  const { count, perSecond } = acceptedRateBetween(arrivals, from, to);
  const seconds = (to - from) / 1000;
  recordOutcome(figures, final);
  figures.line(`sustained sends/s at the fake over ${seconds.toFixed(0)} s`, perSecond, 'sends/s', 1);
  figures.line('sends in the window', count, 'sends');
  const cpuMsPerSend = recordCpu(figures, used, seconds, count, 'send');
  const sends = arrivalFigures(arrivals);
  figures.line('most calls in any 1 s window, whole run (<= rate)', sends.maxCallsInAnySecond, 'calls');
  figures.line('recipients accepted more than once, whole run (must be 0)', sends.acceptedMoreThanOnce, 'recipients');
  noteTimeline(figures, arrivals);
  return { sends: count, sendsPerSecond: perSecond, seconds, cpuMsPerSend, metricsBefore, metricsAfter, monotonicWindow: [monotonicFrom, monotonicTo] };
}

/** MongoDB commands (all, and those that write) per send, by app, over the window (from the apps' own metrics). */
function recordMongoCommands(figures: ScenarioFigures, window: CeilingWindow): void {
  noteMongo(figures, 'sending', window.metricsBefore, window.metricsAfter, window.sends, 'send');
  const growth = growthPerUnit(window.metricsBefore, window.metricsAfter, 'cmsg_mongodb_operation_duration_seconds_count', 'command', window.sends);
  for (const [app, byCommand] of Object.entries(growth)) {
    figures.line(`MongoDB write commands per send, ${app}`, writeCommandsOf(byCommand), 'commands', 2);
  }
  const writes = Object.values(growth).reduce((sum, byCommand) => sum + writeCommandsOf(byCommand), 0);
  figures.line('MongoDB write commands per send, every app', writes, 'commands', 2);
}

/** After the stack stopped (node writes a profile at exit). */
function printProfiles(options: Options, stack: BroadcastBenchStack, window: CeilingWindow): void {
  if (!options.cpuProfile) return;
  const apps = Object.fromEntries(Object.entries(stack.pids).filter(([name]) => !['mongodb', 'kafka (shared)', 'redis (shared)'].includes(name)));
  printProcessProfiles(options.cpuProfile, apps, Object.fromEntries(Object.keys(apps).map((name) => [name, [window.monotonicWindow]])), 'over the measured window');
}

/** ceiling and replicas: the broadcast at the ceiling, with `runners` actions-runner replicas. */
async function runCeilingScenario(options: Options, figures: ScenarioFigures, build: boolean, runners: number): Promise<CeilingWindow> {
  const stack = await BroadcastBenchStack.start(stackOptions(options, figures.scenario, build, { runnerReplicas: runners, nodeArgs: profiling(options) }));
  let window: CeilingWindow;
  try {
    figures.note(`${recipientsOf(options, figures.scenario)} recipients at the channel's max_messages_per_second ${options['ceiling-rate']}, ${runners} actions-runner replica(s); ${options.warmup} s of warm-up, then ${options.measure} s measured`);
    window = await broadcastAtCeiling(stack, options, figures);
    recordMongoCommands(figures, window);
    if (runners > 1) recordReplicaShares(figures, stack, window);
  } finally {
    await stack.stop();
  }
  printProfiles(options, stack, window);
  return window;
}

/**
 * Each replica's share of the recipients it claimed in the window: a claim is one findAndModify
 * of the runner (nothing else of a runner sends one while only a broadcast runs), counted by its
 * own metrics. Nothing in the product records which replica sent a recipient.
 */
function recordReplicaShares(figures: ScenarioFigures, stack: BroadcastBenchStack, window: CeilingWindow): void {
  const growth = growthPerUnit(window.metricsBefore, window.metricsAfter, 'cmsg_mongodb_operation_duration_seconds_count', 'command', 1);
  const claims = Object.fromEntries(stack.runnerNames.map((name) => [name, growth[name]?.['findAndModify'] ?? 0]));
  const total = Object.values(claims).reduce((sum, count) => sum + count, 0);
  for (const [name, count] of Object.entries(claims)) {
    figures.line(`recipients claimed in the window, ${name}`, count, 'recipients');
    figures.line(`share of the recipients, ${name}`, total > 0 ? (count / total) * 100 : Number.NaN, '%', 1);
  }
}

async function runCeiling(options: Options, figures: ScenarioFigures, build: boolean): Promise<void> {
  const window = await runCeilingScenario(options, figures, build, 1);
  figures.note(`\n  action-floor beside it (${options['floor-rounds']} rounds of ${options['floor-duration']} s):`);
  const floor = await runActionFloor({ duration: options['floor-duration'], rounds: options['floor-rounds'], concurrency: 64, conversations: 1000 }, figures.recorder);
  const floorTotal = Object.values(floor.cpuMsPerAction).reduce((sum, ms) => sum + ms, 0);
  const sendTotal = Object.values(window.cpuMsPerSend).reduce((sum, ms) => sum + ms, 0);
  figures.line('action floor: CPU per action, all (the same run)', floorTotal, 'ms', 2);
  figures.line('CPU per send over CPU per floor action', sendTotal / floorTotal, 'x', 1);
}

/** Action groups on the live conversations at `live-rate` for `measure` s, each from its own sequence `offset` on. */
function submitLiveGroups(stack: BroadcastBenchStack, options: Options, offset: number): Promise<SubmissionRun> {
  return submitAtFixedRate(stack.business.api, stack.liveConversations, options['live-rate'] / ACTIONS_PER_GROUP, options.measure, offset);
}

/**
 * Once the groups finished: their 202 and 202 to last action, and how long each group's text send
 * waited from its 202 to its arrival at the fake, as figures named `<label>: ...`.
 */
/**
 * From the conversations service's cmsg_send_slot_wait_seconds{priority="live"} histogram between
 * two scrapes: how many live provider calls waited for their slot in the channel budget, how many
 * of them 1 s or less (the contract's bound beside a broadcast), and the bucket the slowest fell in.
 */
function recordLiveSlotWaits(figures: ScenarioFigures, label: string, before: AppMetrics, after: AppMetrics): void {
  const buckets = (metrics: AppMetrics) => {
    const byBound = new Map<string, number>();
    for (const sample of metrics['conversations'] ?? []) {
      if (sample.name === 'cmsg_send_slot_wait_seconds_bucket' && sample.labels['priority'] === 'live') byBound.set(sample.labels['le'] ?? '', sample.value);
    }
    return byBound;
  };
  const earlier = buckets(before);
  const grown = [...buckets(after)].map(([bound, count]) => [bound, count - (earlier.get(bound) ?? 0)] as const);
  const total = grown.find(([bound]) => bound === '+Inf')?.[1] ?? 0;
  const withinOneSecond = grown.find(([bound]) => bound === '1')?.[1] ?? 0;
  const slowest = grown.filter(([, count]) => count === total).map(([bound]) => Number(bound === '+Inf' ? Infinity : bound)).sort((a, b) => a - b)[0] ?? Number.NaN;
  figures.line(`${label}: live provider calls' waits for their budget slot`, total, 'calls');
  figures.line(`${label}: of them waiting 1 s or less`, total > 0 ? (100 * withinOneSecond) / total : Number.NaN, '%', 1);
  figures.line(`${label}: every live slot wait at most (histogram bucket)`, slowest, 's', 3);
}

async function recordLiveGroups(stack: BroadcastBenchStack, figures: ScenarioFigures, label: string, submitted: SubmissionRun, since: Date): Promise<void> {
  const { accepted: stored } = await waitForGroups(
    stack.business.businessId,
    submitted.accepted.map((group) => group.uuid),
    since,
    GROUP_DRAIN_LIMIT_MS,
  );
  const submitLatency = submitted.accepted.map((group) => group.acceptedAt - group.sentAt).sort((a, b) => a - b);
  const completion = acceptedToLastAction(submitted.accepted, stored);
  const acceptedAt = new Map(submitted.accepted.map((group) => [group.sequence, group.acceptedAt]));
  const firstArrival = new Map<number, number>();
  for (const send of await stack.sends('text')) {
    const sequence = send.status === 200 && send.text !== undefined ? sequenceOfLiveText(send.text) : undefined;
    if (sequence !== undefined && acceptedAt.has(sequence) && !firstArrival.has(sequence)) firstArrival.set(sequence, send.at_ms);
  }
  const waits = [...firstArrival].map(([sequence, at]) => at - acceptedAt.get(sequence)!).sort((a, b) => a - b);
  figures.line(`${label}: groups submitted`, submitted.submitted, 'groups');
  figures.line(`${label}: groups accepted (202)`, submitted.accepted.length, 'groups');
  figures.line(`${label}: groups finished`, completion.length, 'groups');
  figures.line(`${label}: 202 latency p50`, percentile(submitLatency, 50), 'ms');
  figures.line(`${label}: 202 latency p99`, percentile(submitLatency, 99), 'ms');
  figures.line(`${label}: 202 to last action p50`, percentile(completion, 50), 'ms');
  figures.line(`${label}: 202 to last action p99`, percentile(completion, 99), 'ms');
  figures.line(`${label}: live text sends at the fake`, waits.length, 'sends');
  figures.line(`${label}: live text send wait (202 to arrival at the fake) p50`, percentile(waits, 50), 'ms');
  figures.line(`${label}: live text send wait (202 to arrival at the fake) p99`, percentile(waits, 99), 'ms');
  figures.line(`${label}: live text send wait (202 to arrival at the fake) max`, waits.at(-1) ?? Number.NaN, 'ms');
}

/**
 * priority: action groups at `live-rate` actions/s on conversations outside the audience, first on
 * the idle stack, then beside the broadcast at the ceiling (its measured window): the groups' 202
 * and 202 to last action, and how long each group's text send waited from the 202 to its arrival
 * at the fake. The first run is what the second is read against.
 */
async function runPriority(options: Options, figures: ScenarioFigures, build: boolean): Promise<void> {
  const stack = await BroadcastBenchStack.start(stackOptions(options, 'priority', build, { liveConversations: options['live-conversations'], nodeArgs: profiling(options) }));
  let window: CeilingWindow;
  try {
    figures.note(
      `${options['live-rate'] / ACTIONS_PER_GROUP} groups/s of ${ACTIONS_PER_GROUP} actions (one a text send) on ${stack.liveConversations.length} conversations for ${options.measure} s, alone, then beside ${recipientsOf(options, 'priority')} recipients at ${options['ceiling-rate']}/s`,
    );
    const aloneSince = new Date();
    const aloneMetrics = await scrapeAppMetrics(stack.metricsUrls);
    await recordLiveGroups(stack, figures, 'alone', await submitLiveGroups(stack, options, 0), aloneSince);
    recordLiveSlotWaits(figures, 'alone', aloneMetrics, await scrapeAppMetrics(stack.metricsUrls));
    let beside: SubmissionRun | undefined;
    let besideMetrics: AppMetrics | undefined;
    const besideSince = new Date();
    window = await broadcastAtCeiling(stack, options, figures, async () => {
      besideMetrics = await scrapeAppMetrics(stack.metricsUrls);
      beside = await submitLiveGroups(stack, options, 1_000_000);
    });
    await recordLiveGroups(stack, figures, 'beside the broadcast', beside!, besideSince);
    recordLiveSlotWaits(figures, 'beside the broadcast', besideMetrics!, await scrapeAppMetrics(stack.metricsUrls));
  } finally {
    await stack.stop();
  }
  printProfiles(options, stack, window);
}

/**
 * memory: freezing a large audience, sending held back by a send window that excludes now: the
 * time from create to running and each process's peak resident memory over its baseline. The
 * audience is a CSV file of new phones (each row creates its contact); where file audiences are
 * refused, a filter over as many contacts written beforehand.
 */
async function runMemory(options: Options, figures: ScenarioFigures, build: boolean): Promise<void> {
  const recipients = recipientsOf(options, 'memory');
  const stack = await BroadcastBenchStack.start(stackOptions(options, 'memory', build, { audience: 0 }));
  try {
    const inTwoHours = new Date(Date.now() + 2 * 3_600_000);
    const hhmm = (at: Date) => at.toISOString().slice(11, 16);
    const closed = { from: hhmm(inTwoHours), to: hhmm(new Date(inTwoHours.getTime() + 3_600_000)) };
    const measured = async (audience: BroadcastAudience) => {
      const sampling = sampleResidentMemory(Object.fromEntries(Object.entries(stack.pids).filter(([name]) => !name.endsWith('(shared)'))), 200);
      try {
        const { running, seconds } = await freeze(stack, figures, audience, closed);
        return { running, seconds, memory: sampling.stop() };
      } catch (error) {
        sampling.stop();
        throw error;
      }
    };
    let run: Awaited<ReturnType<typeof measured>>;
    try {
      if (options.fileContacts === 'existing') await stack.insertAudience(recipients);
      run = await measured({ file_uuid: await stack.uploadAudienceFile(recipients, options.fileContacts) });
      figures.note(
        options.fileContacts === 'existing'
          ? `a CSV audience file of ${recipients} rows, each the phone of a contact written beforehand; sends held back by a send window that excludes now`
          : `a CSV audience file of ${recipients} rows, each a phone no contact has yet (its contact is created as the row is frozen); sends held back by a send window that excludes now`,
      );
    } catch (error) {
      figures.note(`a file audience (audience.file_uuid) could not be used: ${(error as Error).message}`);
      figures.note(`measured instead with a filter audience over ${recipients} contacts written beforehand (first_name eq Bench); sends held back by a send window that excludes now`);
      await stack.insertAudience(recipients);
      run = await measured({ filter: AUDIENCE_FILTER });
    }
    const { running, seconds, memory } = run;
    await stack.cancelBroadcast(running.uuid);
    const counts = running.counts!;
    figures.note(`broadcast ${running.status}: ${counts.total} recipients, ${counts.pending} pending, ${counts.skipped} skipped (${JSON.stringify(running.skipped_by_reason)})`);
    figures.line('recipients frozen', counts.total, 'recipients');
    figures.line('freeze (create request to running seen)', seconds, 's', 1);
    figures.line('freeze (created_at to started_at)', secondsBetween(running.created_at, running.started_at), 's', 1);
    figures.line('recipients frozen per second', counts.total / seconds, 'recipients/s', 0);
    for (const [name, { before, peak }] of Object.entries(memory)) {
      figures.note(`${name}: RSS ${(before / MIB).toFixed(1)} MiB before, ${(peak / MIB).toFixed(1)} MiB peak`);
      figures.line(`peak RSS growth, ${name}`, (peak - before) / MIB, 'MiB', 1);
    }
  } finally {
    await stack.stop();
  }
}
