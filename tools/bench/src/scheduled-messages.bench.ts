import { randomUUID } from 'node:crypto';
import { scheduleHistoryEntry } from '@cmsg/conversation-commands';
import { ChannelRepository, ContactRepository, ConversationRepository, ScheduledMessageRepository, businessScope, connectMongo, disconnectMongo } from '@cmsg/dal';
import { type ApiClient, AppProcess, type TestBusiness, createTestBusinessIn, freePort, startFakes } from '@cmsg/testing';
import { LocalStack } from '@cmsg/testing/local-stack';
import { DateTime } from 'luxon';
import mongoose from 'mongoose';
import { reportCallsPerUnit, scrapeAppMetrics } from './app-metrics';
import { type BenchmarkModule, integerOptions, percentile } from './benchmark-module';
import type { FiguresRecorder } from './figures-recorder';
import { CpuMeter, infraServerPids } from './process-cpu';

export interface ScheduledMessagesBenchmarkOptions {
  /** Schedules, one per conversation, all due in the same minute. */
  schedules: number;
  /** More schedules (on as many more conversations) due one minute later, while the first minute's are still being delivered. */
  nextMinute: number;
  /** The channel's max_messages_per_second (seed), also the fake Cloud API's throughput for its number. */
  channelRate: number;
  /** Create requests in flight at once. */
  concurrency: number;
  /** How many schedules are created through the public API; the rest are stored through the repository. */
  apiCreates: number;
  /** Give up waiting for the firings after this long. */
  waitMinutes: number;
  /** Runs once the stack is up (e.g. to swap in another build of an app). */
  afterStart?: (stack: LocalStack) => Promise<void>;
}

/** How far ahead of its minute the benchmark at least starts to make the schedules due. */
const MAKE_DUE_MARGIN_S = 40;
/** The scheduler reads a minute's due schedules this long before it (DEFAULT_FIRING_OPTIONS.readAheadMs). */
const FIRING_READ_AHEAD_S = 3;

const DEFAULTS = { schedules: 10_000, nextMinute: 0, channelRate: 1000, concurrency: 8, apiCreates: 500, waitMinutes: 20 };
const ZONE = 'UTC';
const TEXT_PREFIX = 'bench schedule #';

/**
 * Issue benchmark: 10,000 scheduled messages across 10,000 conversations, all due in the same
 * minute, fired by two scheduler replicas through the actions-runner to the fake Cloud API, on a
 * channel of `channelRate` messages a second (the send engine paces every send to it). The
 * first `apiCreates` schedules are created through the public API (this stack's rate limit is
 * raised); the rest are stored through the scheduled-message repository as a create stores them.
 * All are created for a far-off time, then re-pointed at once to the next whole minute, so
 * creation speed does not decide when they are due. Prints how many fired, how many reached the
 * provider twice (must be 0), and the lateness after their minute.
 */
export async function runScheduledMessagesBenchmark(options: ScheduledMessagesBenchmarkOptions, recorder: FiguresRecorder): Promise<void> {
  const fakes = await startFakes();
  const stack = new LocalStack({ env: { ...fakes.env, RATE_LIMIT_PER_MINUTE: '100000000', LOG_LEVEL: 'warn' }, fakes: { chatApiBaseUrl: fakes.chatApiBaseUrl, aiBaseUrl: fakes.aiBaseUrl } });
  const description = await stack.start();
  const secondScheduler = new AppProcess('scheduler-2', 'scheduler', { ...description.env, GRPC_ADDRESS: `127.0.0.1:${await freePort()}` }, description.logDir);
  try {
    secondScheduler.start();
    await options.afterStart?.(stack);
    await connectMongo(description.env['MONGODB_URI']!);
    const business = await createTestBusinessIn(description, (seed) => {
      seed.time_zone = ZONE;
      seed.channels![0]!.max_messages_per_second = options.channelRate;
      seed.templates = [{ uuid: randomUUID(), name: 'bench_reminder', language: 'en', status: 'approved', category: 'utility', body: 'Reminder', channel: seed.channels![0]!.public_key }];
    });
    const templateUuid = business.seed.templates![0]!.uuid;
    fakes.cloudApi.setThroughput(business.seed.channels![0]!.phone_number_id, options.channelRate);
    const total = options.schedules + options.nextMinute;
    const conversations = await insertConversations(business.businessId, total);
    console.log(
      `\nscheduled messages: ${options.schedules} schedules due in one minute${options.nextMinute > 0 ? ` and ${options.nextMinute} in the next` : ''}, one per conversation, a channel of ${options.channelRate} messages/s, 2 scheduler replicas, ${options.concurrency} create requests in flight`,
    );

    const createStarted = Date.now();
    const viaApi = Math.min(options.apiCreates, conversations.length);
    const byIndex = await createSchedules(business.api, conversations.slice(0, viaApi), templateUuid, options.concurrency);
    const createSeconds = (Date.now() - createStarted) / 1000;
    console.log(`created ${byIndex.filter(Boolean).length} schedules through POST /conversation/scheduled-message in ${createSeconds.toFixed(1)} s (${(viaApi / createSeconds).toFixed(1)}/s)`);
    recorder.record('api_creates_per_second', viaApi / createSeconds, 'requests/s');
    if (viaApi < conversations.length) {
      const storeStarted = Date.now();
      byIndex.push(...(await storeSchedules(business, conversations, viaApi, templateUuid)));
      console.log(`stored ${conversations.length - viaApi} more through the repository in ${((Date.now() - storeStarted) / 1000).toFixed(1)} s`);
    }
    const scheduleUuids = byIndex.filter((uuid): uuid is string => uuid !== undefined);

    const meter = new CpuMeter({ ...description.pids, 'scheduler-2': secondScheduler.pid ?? 0, ...infraServerPids(description.env) });
    meter.start();
    const metricsBefore = await scrapeAppMetrics(description.metricsUrls);
    // At least MAKE_DUE_MARGIN_S ahead: making 10,000 schedules due is one updateMany that takes the
    // local server seconds, and schedules made due after their minute began fire late by that much.
    const dueAt = DateTime.utc().plus({ seconds: MAKE_DUE_MARGIN_S }).startOf('minute').plus({ minutes: 1 }).toJSDate();
    const minutes = [
      { label: 'first minute', dueAt, indexes: [0, options.schedules] as const },
      { label: 'next minute, during the first one\'s deliveries', dueAt: new Date(dueAt.getTime() + 60_000), indexes: [options.schedules, total] as const },
    ].filter((minute) => minute.indexes[1] > minute.indexes[0]);
    for (const minute of minutes) {
      const ids = byIndex.slice(...minute.indexes).filter((uuid): uuid is string => uuid !== undefined);
      const makingDue = Date.now();
      await scheduledMessages().updateMany({ _id: { $in: ids } }, { $set: { schedule_at: minute.dueAt } });
      console.log(`${ids.length} due at ${minute.dueAt.toISOString()} (made due in ${((Date.now() - makingDue) / 1000).toFixed(1)} s)`);
    }
    const madeDueAhead = (dueAt.getTime() - Date.now()) / 1000;
    if (madeDueAhead < FIRING_READ_AHEAD_S) console.log(`warning: made due only ${madeDueAhead.toFixed(1)} s before their minute; the firing lateness includes the difference`);

    // Waiting watches the fake Cloud API (in this process); the outcome count scans the collection
    // being measured, so it is read only now and then.
    const phoneNumberId = business.seed.channels![0]!.phone_number_id;
    const waitUntil = Date.now() + options.waitMinutes * 60_000;
    let finished = 0;
    let outcomesReadAt = Date.now();
    while (Date.now() < waitUntil) {
      const delivered = fakes.cloudApi.sentMessages({ phone_number_id: phoneNumberId }).length;
      if (delivered >= scheduleUuids.length || Date.now() - outcomesReadAt >= 30_000) {
        finished = await countOutcomes(business.businessId);
        outcomesReadAt = Date.now();
        if (finished >= scheduleUuids.length) break;
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    if (finished < scheduleUuids.length) finished = await countOutcomes(business.businessId);
    const used = meter.stop();
    const metricsAfter = await scrapeAppMetrics(description.metricsUrls);

    const sendsByIndex = new Map<number, number[]>();
    for (const send of fakes.cloudApi.sentMessages({ phone_number_id: phoneNumberId })) {
      const text = (send.body as { text?: { body?: string } }).text?.body ?? '';
      if (!text.startsWith(TEXT_PREFIX)) continue;
      const index = Number(text.slice(TEXT_PREFIX.length));
      sendsByIndex.set(index, [...(sendsByIndex.get(index) ?? []), Date.parse(send.at)]);
    }
    const twice = [...sendsByIndex.values()].filter((times) => times.length > 1).length;
    const stored = new Map((await scheduledMessages().find({ _id: { $in: scheduleUuids } }, { projection: { fired_at: 1, produced_at: 1 } }).toArray()).map((schedule) => [schedule._id, schedule]));
    const latenessFiguresOfMinutes = minutes.flatMap((minute, minuteIndex) => {
      const indexes = Array.from({ length: minute.indexes[1] - minute.indexes[0] }, (_, offset) => minute.indexes[0] + offset);
      const lateness = (at: (index: number) => number | undefined) =>
        indexes.flatMap((index) => (at(index) === undefined ? [] : [at(index)! - minute.dueAt.getTime()])).sort((a, b) => a - b);
      const firing = lateness((index) => stored.get(byIndex[index] ?? '')?.fired_at?.getTime());
      const command = lateness((index) => stored.get(byIndex[index] ?? '')?.produced_at?.getTime());
      const delivery = lateness((index) => (sendsByIndex.has(index) ? Math.min(...sendsByIndex.get(index)!) : undefined));
      console.log(`${minute.label}:`);
      console.log(latenessLine('  firing lateness (a scheduler claimed it: fired_at)', firing));
      console.log(latenessLine('  command lateness (Kafka acknowledged its command)', command));
      console.log(latenessLine('  delivery lateness (fake Cloud API received it)', delivery));
      const prefix = minuteIndex === 0 ? '' : 'next_minute_';
      return [
        { name: `${prefix}fired`, unit: 'count', value: firing.length },
        ...latenessFigures(`${prefix}firing_lateness`, firing),
        ...latenessFigures(`${prefix}command_lateness`, command),
        ...latenessFigures(`${prefix}delivery_lateness`, delivery),
      ];
    });

    console.log(`finished (sent or failed): ${finished} of ${scheduleUuids.length}`);
    console.log(`reached the fake Cloud API: ${sendsByIndex.size}; more than once: ${twice}`);
    // From before the due minute (the stack idles until then) to the last outcome: firing and delivering them.
    const cpuMsPerSchedule = Object.entries(used).map(([name, seconds]) => ({ name, ms: (seconds * 1000) / Math.max(1, finished) }));
    console.log(`CPU per finished schedule: ${cpuMsPerSchedule.map(({ name, ms }) => `${name} ${ms.toFixed(1)} ms`).join(', ')}`);
    for (const { name, ms } of cpuMsPerSchedule) recorder.record(`cpu_ms_per_schedule_${name}`, ms, 'ms');
    reportCallsPerUnit(metricsBefore, metricsAfter, finished, 'schedule', recorder);
    for (const figure of [
      { name: 'schedules', unit: 'count', value: scheduleUuids.length },
      { name: 'finished', unit: 'count', value: finished },
      { name: 'reached_provider', unit: 'count', value: sendsByIndex.size },
      { name: 'reached_provider_more_than_once', unit: 'count', value: twice },
      ...latenessFiguresOfMinutes,
    ]) recorder.record(figure.name, figure.value, figure.unit);
  } finally {
    await secondScheduler.stop();
    await disconnectMongo();
    await stack.stop();
    await fakes.stop();
  }
}

/** The measured collection, read and re-pointed in bulk by the benchmark itself. */
function scheduledMessages() {
  return mongoose.connection.collection<{ _id: string; business_id: string; status: string; schedule_at: Date; fired_at: Date | null; produced_at?: Date }>('scheduled_messages');
}

function countOutcomes(businessId: string): Promise<number> {
  return scheduledMessages().countDocuments({ business_id: businessId, status: { $in: ['sent', 'failed'] } });
}

function latenessLine(label: string, sortedMs: number[]): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  if (sortedMs.length === 0) return `${label.padEnd(52)} none`;
  return `${label.padEnd(52)} p50 ${seconds(percentile(sortedMs, 50))}   p99 ${seconds(percentile(sortedMs, 99))}   max ${seconds(sortedMs.at(-1)!)}   (${sortedMs.length})`;
}

function latenessFigures(name: string, sortedMs: number[]): { name: string; unit: string; value: number }[] {
  if (sortedMs.length === 0) return [];
  return [
    { name: `${name}_p50`, unit: 'ms', value: percentile(sortedMs, 50) },
    { name: `${name}_p99`, unit: 'ms', value: percentile(sortedMs, 99) },
    { name: `${name}_max`, unit: 'ms', value: sortedMs.at(-1)! },
  ];
}

/** Contacts and conversations in bulk (the seed loader upserts one by one); every window is open. */
async function insertConversations(businessId: string, count: number): Promise<string[]> {
  const scope = businessScope(businessId);
  const [channel] = await new ChannelRepository().listByName(scope, 1);
  if (!channel) throw new Error('the bench business has no channel');
  const now = new Date();
  const lastInbound = new Date(now.getTime() - 10 * 60_000);
  const ids: string[] = [];
  for (let start = 0; start < count; start += 1000) {
    const contacts = [];
    const conversations = [];
    for (let index = start; index < Math.min(count, start + 1000); index += 1) {
      const contactId = randomUUID();
      const conversationId = randomUUID();
      const digits = `5219${String(index).padStart(9, '0')}`;
      ids.push(conversationId);
      contacts.push({ _id: contactId, channel_id: channel._id, first_name: 'Bench', last_name: `#${index}`, phone: `+${digits}`, phone_key: digits, is_tester: false, created_at: now, updated_at: now });
      conversations.push({
        _id: conversationId,
        contact_id: contactId,
        contact: { name: `Bench #${index}`, profile_name: null, phone: `+${digits}`, chat_user_id: null },
        channel_id: channel._id,
        inbox_status: 'resolved',
        last_message: { uuid: randomUUID(), body: 'hi', content_type: 'text', is_from_customer: true, created_at: lastInbound },
        last_inbound_at: lastInbound,
        unread_count: 1,
        is_tester: false,
        sort_at: lastInbound,
        created_at: now,
        updated_at: now,
      });
    }
    await new ContactRepository().insertMany(scope, contacts);
    await new ConversationRepository().insertMany(scope, conversations);
  }
  return ids;
}

/** The created schedule uuids by conversation index (undefined where a create failed). */
async function createSchedules(api: ApiClient, conversations: string[], templateUuid: string, concurrency: number): Promise<(string | undefined)[]> {
  const farOff = DateTime.utc().plus({ days: 2 }).startOf('minute');
  const uuids: (string | undefined)[] = new Array(conversations.length).fill(undefined);
  let next = 0;
  let errors = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < conversations.length) {
        const index = next++;
        const at = farOff.plus({ minutes: index % 600 });
        const body = {
          executor_kind: 'human_user',
          // Client-generated, so a create retried after a timeout is recognised (409: it exists).
          scheduled_uuid: randomUUID(),
          conversation: { uuid: conversations[index] },
          schedule_at: { date: at.toFormat('yyyy-MM-dd'), time: at.toFormat('HH:mm') },
          message_kind: 'message',
          payload: { kind: 'message', text: `${TEXT_PREFIX}${index}` },
          template_uuid: templateUuid,
        };
        let created = false;
        for (let attempt = 1; attempt <= 4 && !created; attempt += 1) {
          const response = await api.post('/conversation/scheduled-message', body);
          created = response.status === 201 || (attempt > 1 && response.status === 409);
          if (!created && response.status < 500 && response.status !== 429) {
            errors += 1;
            if (errors > 20) throw new Error(`too many failed creates; last: ${response.status} ${JSON.stringify(response.body)}`);
            break;
          }
        }
        if (!created) continue;
        uuids[index] = body.scheduled_uuid;
      }
    }),
  );
  return uuids;
}

/** Schedules `from`.. of `conversations`, stored through the repository as a create stores them (16 at a time). */
async function storeSchedules(business: TestBusiness, conversations: string[], from: number, templateUuid: string): Promise<string[]> {
  const repository = new ScheduledMessageRepository();
  const scope = businessScope(business.businessId);
  const farOff = DateTime.utc().plus({ days: 2 }).startOf('minute').toJSDate();
  const author = { type: 'api_token', uuid: business.tokenUuid };
  const uuids = conversations.slice(from).map(() => randomUUID());
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < uuids.length) {
        const position = next++;
        const index = from + position;
        const now = new Date();
        const stored = await repository.insertPending(scope, {
          _id: uuids[position]!,
          conversation_id: conversations[index]!,
          status: 'pending',
          executor_kind: 'human_user',
          ai_employee_id: null,
          reason: null,
          template_id: templateUuid,
          message_kind: 'message',
          payload: { kind: 'message', text: `${TEXT_PREFIX}${index}` },
          template_variables: [],
          template_header: null,
          template_button_parameters: [],
          schedule_at: farOff,
          schedule_local: { date: farOff.toISOString().slice(0, 10), time: farOff.toISOString().slice(11, 16), time_zone: ZONE },
          cancel_on_customer_reply: false,
          is_tester: false,
          created_by_token_id: business.tokenUuid,
          author,
          error: null,
          history: [scheduleHistoryEntry('created', 'pending', now, { actor: { type: 'api_token', uuid: business.tokenUuid } })],
          fired_at: null,
          fire_claim: null,
          delivery: null,
          note_id: null,
          created_at: now,
          updated_at: now,
        });
        if (stored !== 'inserted') throw new Error(`storing schedule #${index}: ${stored}`);
      }
    }),
  );
  return uuids;
}

export const scheduledMessagesBenchmark: BenchmarkModule = {
  summary: `${DEFAULTS.schedules} scheduled messages due in the same minute (and optionally more in the next), two scheduler replicas: how many fired, how many twice, lateness`,
  options: [
    `--schedules N (default ${DEFAULTS.schedules})`,
    `--channelRate N the channel's max_messages_per_second, 1..1000: delivery cannot outrun it (default ${DEFAULTS.channelRate}, the upgraded tier)`,
    `--nextMinute N more due one minute later, firing while the first minute's are delivered (default ${DEFAULTS.nextMinute})`,
    `--apiCreates N created through the public API, the rest stored through the repository (default ${DEFAULTS.apiCreates})`,
    `--concurrency N create requests in flight (default ${DEFAULTS.concurrency})`,
    `--waitMinutes N (default ${DEFAULTS.waitMinutes})`,
  ],
  run: (argv, recorder) => runScheduledMessagesBenchmark(recorder.parameters(integerOptions(argv, DEFAULTS)), recorder),
};
