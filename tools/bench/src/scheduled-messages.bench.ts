import { randomUUID } from 'node:crypto';
import { scheduleDueMinute } from '@cmsg/conversation-commands';
import { ChannelModel, ContactModel, ConversationModel, ConversationScheduleSlotModel, ScheduleClaimModel, ScheduledMessageModel, connectMongo, disconnectMongo } from '@cmsg/dal';
import { type ApiClient, AppProcess, LocalStack, type TestBusiness, createTestBusinessIn, freePort, startFakes } from '@cmsg/testing';
import { DateTime } from 'luxon';
import { type BenchmarkModule, integerOptions, percentile } from './benchmark-module';
import type { FiguresRecorder } from './figures-recorder';

export interface ScheduledMessagesBenchmarkOptions {
  /** Schedules, one per conversation, due within the same two minutes. */
  schedules: number;
  /** Create requests in flight at once. */
  concurrency: number;
  /** How many schedules are created through the public API; the rest are written in bulk. */
  apiCreates: number;
  /** Give up waiting for the firings after this long. */
  waitMinutes: number;
  /** Runs once the stack is up (e.g. to swap in another build of an app). */
  afterStart?: (stack: LocalStack) => Promise<void>;
}

const DEFAULTS = { schedules: 10_000, concurrency: 8, apiCreates: 500, waitMinutes: 60 };
const ZONE = 'UTC';
const TEXT_PREFIX = 'bench schedule #';

/**
 * Issue benchmark: 10,000 scheduled messages across 10,000 conversations due within the same two
 * minutes, fired by two scheduler replicas through the actions-runner to the fake Cloud API.
 * The first `apiCreates` schedules are created through the public API (this stack's rate limit is
 * raised: at 60 requests a minute 10,000 creates take about 3 hours); on FerretDB a create costs
 * several collection scans, so the rest are written in bulk in the shape the create use case writes
 * (record + the conversation's slot log entry). All are created for a far-off time, then re-pointed
 * at once to the next two whole minutes, so creation speed does not decide when they are due.
 * Prints how many fired, how many reached the provider twice (must be 0), and the lateness after
 * their minute.
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
      seed.templates = [{ uuid: randomUUID(), name: 'bench_reminder', language: 'en', status: 'approved', category: 'utility', body: 'Reminder', channel: seed.channels![0]!.public_key }];
    });
    const templateUuid = business.seed.templates![0]!.uuid;
    const conversations = await insertConversations(business.businessId, options.schedules);
    console.log(`\nscheduled messages: ${options.schedules} schedules on ${options.schedules} conversations, 2 scheduler replicas, ${options.concurrency} create requests in flight`);

    const createStarted = Date.now();
    const viaApi = Math.min(options.apiCreates, conversations.length);
    const byIndex = await createSchedules(business.api, conversations.slice(0, viaApi), templateUuid, options.concurrency);
    const createSeconds = (Date.now() - createStarted) / 1000;
    console.log(`created ${byIndex.filter(Boolean).length} schedules through POST /conversation/scheduled-message in ${createSeconds.toFixed(1)} s (${(viaApi / createSeconds).toFixed(1)}/s)`);
    if (viaApi < conversations.length) {
      const bulkStarted = Date.now();
      byIndex.push(...(await insertSchedules(business, conversations, viaApi, templateUuid)));
      console.log(`wrote ${conversations.length - viaApi} more in bulk in ${((Date.now() - bulkStarted) / 1000).toFixed(1)} s`);
    }
    const scheduleUuids = byIndex.filter((uuid): uuid is string => uuid !== undefined);

    const firstMinute = DateTime.utc().startOf('minute').plus({ minutes: 1 });
    const minuteOf = (index: number) => firstMinute.plus({ minutes: index % 2 }).toJSDate();
    await repointSchedules(byIndex, minuteOf);
    console.log(`due at ${firstMinute.toISO()} and one minute later`);

    // Waiting watches the fake Cloud API (in this process); the outcome count reads every claim of the
    // business, a load on the database being measured, so it is read only now and then.
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

    const sends = fakes.cloudApi.sentMessages({ phone_number_id: phoneNumberId });
    const sendsByIndex = new Map<number, number[]>();
    for (const send of sends) {
      const text = (send.body as { text?: { body?: string } }).text?.body ?? '';
      if (!text.startsWith(TEXT_PREFIX)) continue;
      const index = Number(text.slice(TEXT_PREFIX.length));
      sendsByIndex.set(index, [...(sendsByIndex.get(index) ?? []), Date.parse(send.at)]);
    }
    const twice = [...sendsByIndex.values()].filter((times) => times.length > 1).length;
    const deliveryLateness = [...sendsByIndex.entries()].map(([index, times]) => Math.min(...times) - minuteOf(index).getTime()).sort((a, b) => a - b);
    const fired = await ScheduledMessageModel.find({ _id: { $in: scheduleUuids } }, { schedule_at: 1, fired_at: 1 }).lean<{ schedule_at: Date; fired_at: Date | null }[]>();
    const firingLateness = fired.filter((schedule) => schedule.fired_at).map((schedule) => schedule.fired_at!.getTime() - schedule.schedule_at.getTime()).sort((a, b) => a - b);

    console.log(`finished (sent or failed): ${finished} of ${scheduleUuids.length}`);
    console.log(`reached the fake Cloud API: ${sendsByIndex.size}; more than once: ${twice}`);
    console.log(figures('firing lateness (scheduler produced the command)', firingLateness));
    console.log(figures('delivery lateness (fake Cloud API received it)', deliveryLateness));
    recorder.record('finished (sent or failed)', finished, 'schedules');
    recorder.record('reached the fake Cloud API more than once', twice, 'schedules');
    recorder.record('firing lateness p99', percentile(firingLateness, 99), 'ms');
    recorder.record('delivery lateness p99', percentile(deliveryLateness, 99), 'ms');
  } finally {
    await secondScheduler.stop();
    await disconnectMongo();
    await stack.stop();
    await fakes.stop();
  }
}

function countOutcomes(businessId: string): Promise<number> {
  return ScheduleClaimModel.countDocuments({ business_id: businessId, kind: 'outcome' });
}

function figures(label: string, sortedMs: number[]): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  if (sortedMs.length === 0) return `${label.padEnd(52)} none`;
  return `${label.padEnd(52)} p50 ${seconds(percentile(sortedMs, 50))}   p99 ${seconds(percentile(sortedMs, 99))}   max ${seconds(sortedMs.at(-1)!)}   (${sortedMs.length})`;
}

/** Contacts and conversations in bulk (the seed loader upserts one by one); every window is open. */
async function insertConversations(businessId: string, count: number): Promise<string[]> {
  const channel = await ChannelModel.findOne({ business_id: businessId }, { _id: 1 }).lean<{ _id: string }>();
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
      contacts.push({ _id: contactId, business_id: businessId, channel_id: channel._id, first_name: 'Bench', last_name: `#${index}`, phone: `+${digits}`, phone_key: digits, is_tester: false, created_at: now, updated_at: now });
      conversations.push({
        _id: conversationId,
        business_id: businessId,
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
    await ContactModel.insertMany(contacts);
    await ConversationModel.insertMany(conversations);
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

/**
 * Schedules `from`.. of `conversations`, written as the create use case writes them (a pending record
 * created by the business token, and the first entry of the conversation's schedule slot log).
 */
async function insertSchedules(business: TestBusiness, conversations: string[], from: number, templateUuid: string): Promise<string[]> {
  const farOff = DateTime.utc().plus({ days: 2 }).startOf('minute').toJSDate();
  const author = { type: 'api_token', uuid: business.tokenUuid };
  const uuids: string[] = [];
  for (let start = from; start < conversations.length; start += 1000) {
    const now = new Date();
    const records = [];
    const slots = [];
    for (let index = start; index < Math.min(conversations.length, start + 1000); index += 1) {
      const uuid = randomUUID();
      uuids.push(uuid);
      records.push({
        _id: uuid,
        business_id: business.businessId,
        conversation_id: conversations[index],
        status: 'pending',
        executor_kind: 'human_user',
        template_id: templateUuid,
        message_kind: 'message',
        payload: { kind: 'message', text: `${TEXT_PREFIX}${index}` },
        schedule_at: farOff,
        due_minute: scheduleDueMinute(farOff),
        schedule_local: { date: farOff.toISOString().slice(0, 10), time: farOff.toISOString().slice(11, 16), time_zone: ZONE },
        created_by_token_id: business.tokenUuid,
        author,
        history: [{ at: now, event: 'created', status: 'pending', reason: null, actor: author, detail: null }],
        created_at: now,
        updated_at: now,
      });
      slots.push({ _id: `${conversations[index]}:1`, business_id: business.businessId, conversation_id: conversations[index], seq: 1, schedule_id: uuid, previous_schedule_id: null, created_at: now });
    }
    await ScheduledMessageModel.insertMany(records);
    await ConversationScheduleSlotModel.insertMany(slots);
  }
  return uuids;
}

/** The firing time of schedule i becomes minute i % 2, with its minute bucket (one bulk update per minute). */
async function repointSchedules(uuids: (string | undefined)[], minuteOf: (index: number) => Date): Promise<void> {
  for (const parity of [0, 1]) {
    const ids = uuids.filter((uuid, index): uuid is string => uuid !== undefined && index % 2 === parity);
    await ScheduledMessageModel.updateMany({ _id: { $in: ids } }, { $set: { schedule_at: minuteOf(parity), due_minute: scheduleDueMinute(minuteOf(parity)) } });
  }
}

export const scheduledMessagesBenchmark: BenchmarkModule = {
  summary: `${DEFAULTS.schedules} scheduled messages due within two minutes, two scheduler replicas: how many fired, how many twice, lateness`,
  options: [
    `--schedules N (default ${DEFAULTS.schedules})`,
    `--apiCreates N created through the public API, the rest written in bulk (default ${DEFAULTS.apiCreates})`,
    `--concurrency N create requests in flight (default ${DEFAULTS.concurrency})`,
    `--waitMinutes N (default ${DEFAULTS.waitMinutes})`,
  ],
  run: (argv, recorder) => runScheduledMessagesBenchmark(recorder.parameters(integerOptions(argv, DEFAULTS)), recorder),
};
