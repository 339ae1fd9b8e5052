import { randomUUID } from 'node:crypto';
import { connectMongo, disconnectMongo } from '@cmsg/dal';
import { type ApiClient, type BusinessSeedInput, LocalStack, createTestBusinessIn, minutesAgo, startFakes, uniquePhone } from '@cmsg/testing';
import { type BenchmarkModule, integerOptions, percentile } from './benchmark-module';
import type { FiguresRecorder } from './figures-recorder';

interface Options {
  duration: number;
  conversations: number;
  concurrency: number;
}

interface Accepted {
  uuid: string;
  /** When the 202 arrived (client clock; the stack runs on this machine). */
  acceptedAt: number;
  submitMs: number;
}

interface Finished extends Accepted {
  status: string;
  lastActionFinishedAt: number;
}

const ACTIONS_PER_GROUP = 5;
/** Failed submissions tolerated before the run is called off. */
const MAX_SUBMIT_ERRORS = 50;
const POLL_PAUSE_MS = 250;
const POLL_PARALLELISM = 16;

/** Five actions that touch the conversation state but no provider: the command stream and the conversation RPCs. */
function groupFor(conversationUuid: string, sequence: number) {
  return {
    conversation: { uuid: conversationUuid },
    actions: [
      { type: 'assign_label', tags: [{ name: 'bench' }] },
      { type: 'context_note', note: `benchmark group ${sequence}` },
      { type: 'assign_mailbox', mailbox: { name: sequence % 2 === 0 ? 'Even' : 'Odd' } },
      { type: 'remove_label', tags: [{ name: 'bench' }] },
      { type: 'mark_pending' },
    ],
  };
}

function seedBusiness(seed: BusinessSeedInput, conversations: number): string[] {
  seed.tags = [{ uuid: randomUUID(), name: 'bench', color: '#888' }];
  seed.mailbox_categories = [{ uuid: randomUUID(), name: 'Bench', mailboxes: [{ uuid: randomUUID(), name: 'Even' }, { uuid: randomUUID(), name: 'Odd' }] }];
  const uuids: string[] = [];
  seed.contacts = Array.from({ length: conversations }, (_, index) => {
    const uuid = randomUUID();
    uuids.push(uuid);
    return {
      uuid: randomUUID(),
      channel: seed.channels![0]!.public_key,
      first_name: 'Bench',
      last_name: `#${index}`,
      phone: uniquePhone(),
      conversation: { uuid, messages: [{ uuid: randomUUID(), is_from_customer: true, body: 'hi', content_type: 'text', created_at: minutesAgo(10) }] },
    };
  });
  return uuids;
}

/** Closed loop: `concurrency` submitters, each posting its next group as soon as the previous one was accepted. */
async function submitFor(api: ApiClient, conversations: string[], options: Options): Promise<{ accepted: Accepted[]; errors: number; startedAt: number }> {
  const accepted: Accepted[] = [];
  const startedAt = Date.now();
  const endAt = startedAt + options.duration * 1000;
  let sequence = 0;
  let errors = 0;
  const submitter = async () => {
    while (Date.now() < endAt && errors < MAX_SUBMIT_ERRORS) {
      const current = sequence++;
      const sent = Date.now();
      const response = await api.post('/conversation/actions', groupFor(conversations[current % conversations.length]!, current));
      if (response.status === 202) accepted.push({ uuid: response.body.action_group.uuid, acceptedAt: Date.now(), submitMs: Date.now() - sent });
      else if (++errors <= 3) console.error(`submit failed: ${response.status} ${JSON.stringify(response.body)}`);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, submitter));
  if (errors >= MAX_SUBMIT_ERRORS) throw new Error(`${errors} submissions failed; stopping`);
  return { accepted, errors, startedAt };
}

/** Follows every group through GET /action-groups/{uuid} until it finished, within a deadline. */
async function waitForAll(api: ApiClient, accepted: Accepted[], deadlineMs: number): Promise<{ finished: Finished[]; unfinished: number }> {
  const pending = new Map(accepted.map((group) => [group.uuid, group]));
  const finished: Finished[] = [];
  const deadline = Date.now() + deadlineMs;
  while (pending.size > 0 && Date.now() < deadline) {
    const batch = [...pending.values()];
    for (let start = 0; start < batch.length; start += POLL_PARALLELISM) {
      await Promise.all(
        batch.slice(start, start + POLL_PARALLELISM).map(async (group) => {
          const response = await api.get(`/action-groups/${group.uuid}`);
          if (response.status !== 200 || response.body.status === 'processing') return;
          const ends = (response.body.actions as { finished_at: string | null }[]).map((action) => Date.parse(action.finished_at ?? response.body.finished_at));
          finished.push({ ...group, status: response.body.status, lastActionFinishedAt: Math.max(...ends) });
          pending.delete(group.uuid);
        }),
      );
    }
    if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, POLL_PAUSE_MS));
  }
  return { finished, unfinished: pending.size };
}

function report(options: Options, startedAt: number, errors: number, finished: Finished[], unfinished: number, figures: FiguresRecorder): void {
  const succeeded = finished.filter((group) => group.status === 'succeeded').length;
  const lastEnd = Math.max(...finished.map((group) => group.lastActionFinishedAt));
  const seconds = (lastEnd - startedAt) / 1000;
  const completion = finished.map((group) => group.lastActionFinishedAt - group.acceptedAt).sort((a, b) => a - b);
  const submit = finished.map((group) => group.submitMs).sort((a, b) => a - b);
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  console.log(`\naction groups: ${options.conversations} conversations, ${options.concurrency} submitters, ${options.duration} s of submissions, ${ACTIONS_PER_GROUP} non-AI actions per group`);
  console.log(`  groups accepted      ${finished.length + unfinished} (${errors} submissions refused)`);
  console.log(`  groups finished      ${finished.length} (${succeeded} succeeded, ${finished.length - succeeded} failed, ${unfinished} unfinished at the deadline)`);
  console.log(`  throughput           ${(finished.length / seconds).toFixed(1)} groups/s, ${((finished.length * ACTIONS_PER_GROUP) / seconds).toFixed(1)} actions/s (first submit to last action, ${seconds.toFixed(1)} s)`);
  console.log(`  202 latency          p50 ${ms(percentile(submit, 50))}   p99 ${ms(percentile(submit, 99))}`);
  console.log(`  202 -> last action   p50 ${ms(percentile(completion, 50))}   p99 ${ms(percentile(completion, 99))}   max ${ms(completion[completion.length - 1] ?? Number.NaN)}`);
  figures.record('groups finished', finished.length, 'groups');
  figures.record('groups unfinished at the deadline', unfinished, 'groups');
  figures.record('throughput', (finished.length * ACTIONS_PER_GROUP) / seconds, 'actions/s');
  figures.record('202 latency p50', percentile(submit, 50), 'ms');
  figures.record('202 latency p99', percentile(submit, 99), 'ms');
  figures.record('202 to last action p50', percentile(completion, 50), 'ms');
  figures.record('202 to last action p99', percentile(completion, 99), 'ms');
}

async function runActionGroupsBenchmark(options: Options, figures: FiguresRecorder): Promise<void> {
  const fakes = await startFakes();
  // The product limit is 60 requests a minute per token; a benchmark measures throughput instead.
  const stack = new LocalStack({
    env: { ...fakes.env, RATE_LIMIT_PER_MINUTE: '100000000', LOG_LEVEL: 'warn' },
    fakes: { chatApiBaseUrl: fakes.chatApiBaseUrl, aiBaseUrl: fakes.aiBaseUrl },
  });
  try {
    const description = await stack.start();
    await connectMongo(description.env['MONGODB_URI']!);
    let conversations: string[] = [];
    const business = await createTestBusinessIn(description, (seed) => {
      conversations = seedBusiness(seed, options.conversations);
    });
    console.log(`stack ${description.runId} ready; seeded ${conversations.length} conversations; submitting for ${options.duration} s`);
    const { accepted, errors, startedAt } = await submitFor(business.api, conversations, options);
    console.log(`${accepted.length} groups accepted; waiting for them to finish`);
    const { finished, unfinished } = await waitForAll(business.api, accepted, Math.max(120_000, options.duration * 4000));
    if (finished.length === 0) throw new Error('no group finished');
    report(options, startedAt, errors, finished, unfinished, figures);
  } finally {
    await disconnectMongo();
    await stack.stop();
    await fakes.stop();
  }
}

export const actionGroupsBenchmark: BenchmarkModule = {
  summary: 'groups of 5 non-AI actions over many conversations: groups/s, actions/s, 202 -> last action p50/p99',
  options: ['--duration <s>       submission phase (default 30)', '--conversations <n>  conversations seeded (default 200)', '--concurrency <n>    submitters in flight (default 32)'],
  run: (argv, figures) => runActionGroupsBenchmark(figures.parameters(integerOptions(argv, { duration: 30, conversations: 200, concurrency: 32 })), figures),
};
