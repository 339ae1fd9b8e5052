import { randomUUID } from 'node:crypto';
import { generateApiToken } from '@cmsg/seed';
import {
  type ApiClient,
  type BusinessSeedInput,
  type ContactSeedInput,
  FakeAiRemote,
  FakeCloudApiRemote,
  type TestBusiness,
  contactSeed,
  createTestBusiness,
  integrationFakes,
  minutesAgo,
  uniquePhone,
  storedCollection,
} from '@cmsg/testing';
import { DateTime } from 'luxon';

/** The objects every scheduling test business has (seed format, CONTRACT 8); Bruno's wallet is empty. */
export interface SchedulingCatalog {
  ai: { ana: string; bruno: string };
  templates: { reminder: string; greeting: string; pending: string; fallback: string };
  quickReplies: { welcome: string };
}

export interface SchedulingBusiness extends TestBusiness {
  catalog: SchedulingCatalog;
  /** A client with the next of the business's tokens (each token has its own 60 requests a minute). */
  api: ApiClient;
  nextClient(): ApiClient;
}

export interface SchedulingBusinessOptions {
  tokens?: number;
}

/**
 * A fresh business for scheduling: two AI employees, approved templates (one with two variables,
 * one as the channel's default scheduled template), a pending template and a quick reply;
 * `customize` adds the contacts (openHumanConversation and friends).
 */
export async function createSchedulingBusiness(
  customize: (seed: BusinessSeedInput, catalog: SchedulingCatalog) => void,
  options: SchedulingBusinessOptions = {},
): Promise<SchedulingBusiness> {
  const catalog: SchedulingCatalog = {
    ai: { ana: randomUUID(), bruno: randomUUID() },
    templates: { reminder: randomUUID(), greeting: randomUUID(), pending: randomUUID(), fallback: randomUUID() },
    quickReplies: { welcome: randomUUID() },
  };
  const tokens = Array.from({ length: (options.tokens ?? 3) - 1 }, () => ({ uuid: randomUUID(), token: generateApiToken() }));
  const business = await createTestBusiness((seed) => {
    const channel = seed.channels![0]!.public_key;
    seed.time_zone = 'America/Mexico_City';
    seed.api_tokens = [...(seed.api_tokens ?? []), ...tokens];
    seed.channels![0]!.default_scheduled_template = 'we_miss_you';
    seed.vision_wallet_tokens = 1000;
    seed.ai_employees = [
      { uuid: catalog.ai.ana, name: 'Ana', model: aiModelOf(catalog.ai.ana), instructions: 'You are Ana.', wallet_tokens: 100_000 },
      { uuid: catalog.ai.bruno, name: 'Bruno', model: aiModelOf(catalog.ai.bruno), instructions: 'You are Bruno.', wallet_tokens: 0 },
    ];
    seed.templates = [
      { uuid: catalog.templates.reminder, name: 'appointment_reminder', language: 'es_MX', status: 'approved', category: 'utility', body: 'Hola {{1}}, tu cita es el {{2}}.', channel },
      { uuid: catalog.templates.greeting, name: 'greeting', language: 'es_MX', status: 'approved', category: 'utility', body: 'Hola, ¿seguimos en contacto?', channel },
      { uuid: catalog.templates.pending, name: 'promo_pending', language: 'es_MX', status: 'pending', category: 'marketing', body: 'Promo', channel },
      { uuid: catalog.templates.fallback, name: 'we_miss_you', language: 'es_MX', status: 'approved', category: 'utility', body: 'Te extrañamos, escríbenos.', channel },
    ];
    seed.quick_replies = [{ uuid: catalog.quickReplies.welcome, name: 'Welcome', actions: [{ text: 'Welcome back!' }, { text: 'How can we help?' }] }];
    customize(seed, catalog);
  });
  const clients = [business.api, ...tokens.map((token) => business.api.withToken(token.token))];
  let next = 0;
  return {
    ...business,
    catalog,
    nextClient: () => clients[next++ % clients.length]!,
  };
}

/** Each employee has its own model name, so the fake AI's records tell the businesses apart. */
export function aiModelOf(aiEmployeeUuid: string): string {
  return `gpt-${aiEmployeeUuid.slice(0, 8)}`;
}

type ConversationSeed = Partial<NonNullable<ContactSeedInput['conversation']>>;

/** A contact whose window is open (wrote 5 minutes ago); returns its conversation uuid. */
export function openConversation(seed: BusinessSeedInput, conversation: ConversationSeed = {}, contact: Partial<ContactSeedInput> = {}): string {
  const uuid = randomUUID();
  contactSeed(seed, {
    phone: uniquePhone(),
    ...contact,
    conversation: { uuid, messages: [{ uuid: randomUUID(), is_from_customer: true, body: 'Hello', content_type: 'text', created_at: minutesAgo(5) }], ...conversation },
  });
  return uuid;
}

/** A contact that last wrote two days ago: window closed. */
export function closedConversation(seed: BusinessSeedInput, conversation: ConversationSeed = {}, contact: Partial<ContactSeedInput> = {}): string {
  return openConversation(seed, { messages: [{ uuid: randomUUID(), is_from_customer: true, body: 'Old', content_type: 'text', created_at: minutesAgo(48 * 60) }], ...conversation }, contact);
}

/** A local {date, time} `minutes` from now in `zone` (whole minutes: at least one minute ahead). */
export function localIn(zone: string, minutes: number, from: DateTime = DateTime.now()): { date: string; time: string } {
  const at = from.setZone(zone).plus({ minutes });
  return { date: at.toFormat('yyyy-MM-dd'), time: at.toFormat('HH:mm') };
}

/** The body of an AI schedule (override any field). */
export function aiSchedule(conversation: string, zone: string, fields: Record<string, unknown> = {}) {
  return { executor_kind: 'ai_employee', conversation: { uuid: conversation }, schedule_at: localIn(zone, 10), reason: 'Follow up on the quote', ...fields };
}

/** The body of a human text schedule with its window-closed template (override any field). */
export function humanSchedule(conversation: string, zone: string, catalog: SchedulingCatalog, fields: Record<string, unknown> = {}) {
  return {
    executor_kind: 'human_user',
    conversation: { uuid: conversation },
    schedule_at: localIn(zone, 10),
    message_kind: 'message',
    payload: { kind: 'message', text: 'See you at 5' },
    template_uuid: catalog.templates.greeting,
    ...fields,
  };
}

export interface StoredScheduleView {
  _id: string;
  status: string;
  conversation_id: string;
  pending_conversation_key?: string;
  schedule_at: Date;
  fired_at: Date | null;
  delivery: string | null;
  error: { code: string; message: string } | null;
  history: { event: string; status: string; reason: string | null }[];
}

const scheduledMessages = () => storedCollection<StoredScheduleView>('scheduled_messages');

/** Read straight from the database, so waiting does not spend the token's 60 requests a minute. */
export function storedSchedule(uuid: string): Promise<StoredScheduleView | null> {
  return scheduledMessages().findOne({ _id: uuid });
}

/** The conversation's pending schedule: the one holding its pending key. */
export async function pendingScheduleOf(conversation: string): Promise<string | null> {
  const holders = await scheduledMessages().find({ conversation_id: conversation, pending_conversation_key: { $exists: true } }).toArray();
  if (holders.length > 1) throw new Error(`conversation ${conversation} has ${holders.length} pending schedules`);
  return holders[0]?._id ?? null;
}

/**
 * Makes a created schedule due now: schedules are minute-granular, so a test that waits for the
 * next minute would take up to 60 s. Only the firing time changes; everything else went through the API.
 */
export async function makeDueNow(uuid: string): Promise<void> {
  await makeAllDueNow([uuid]);
}

export async function makeAllDueNow(uuids: string[]): Promise<void> {
  await scheduledMessages().updateMany({ _id: { $in: uuids } }, { $set: { schedule_at: new Date(Date.now() - 1000) } });
}

export async function waitForSchedule(uuid: string, done: (schedule: StoredScheduleView) => boolean, timeoutMs = 30_000): Promise<StoredScheduleView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const schedule = await storedSchedule(uuid);
    if (schedule && done(schedule)) return schedule;
    if (Date.now() > deadline) throw new Error(`schedule ${uuid} not done after ${timeoutMs} ms: ${JSON.stringify(schedule)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

export const isFinal = (schedule: StoredScheduleView) => ['sent', 'failed', 'cancelled'].includes(schedule.status);

export function cloudApi(): FakeCloudApiRemote {
  return new FakeCloudApiRemote(integrationFakes().chatApiBaseUrl);
}

export function aiProvider(): FakeAiRemote {
  return new FakeAiRemote(integrationFakes().aiBaseUrl);
}

/** Message sends the fake Cloud API accepted for one recipient phone. */
export async function sendsTo(phone: string): Promise<unknown[]> {
  return (await cloudApi().requests({ kind: 'message', to: phone })).filter((record) => record.status === 200);
}
