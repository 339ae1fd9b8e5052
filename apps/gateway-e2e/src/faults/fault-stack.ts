import { randomUUID } from 'node:crypto';
import { disconnectMongo } from '@cmsg/dal';
import { generateApiToken } from '@cmsg/seed';
import {
  type BusinessSeedInput,
  type LocalStackOptions,
  type RunningFakes,
  type StackDescription,
  type TestBusiness,
  type ThrowawayKafkaBroker,
  type ThrowawayMongoServer,
  type ThrowawayRedisServer,
  closeStackRedisConnections,
  contactSeed,
  createTestBusinessIn,
  minutesAgo,
  startFakes,
  startThrowawayKafkaBroker,
  startThrowawayMongoServer,
  startThrowawayRedisServer,
  connectToDatabase,
  dropConnectedDatabase,
  storedCollection,
} from '@cmsg/testing';
import { LocalStack } from '@cmsg/testing/local-stack';

/**
 * A stack of its own for one fault spec (they stop, pause and kill servers and apps), optionally on
 * a MongoDB, a Redis and a Kafka broker of its own, so pausing, killing or restarting them touches
 * no other stack: the fault specs run side by side (jest.faults.config.js).
 */
export interface FaultStack {
  stack: LocalStack;
  description: StackDescription;
  fakes: RunningFakes;
  mongo: ThrowawayMongoServer | undefined;
  redis: ThrowawayRedisServer | undefined;
  kafka: ThrowawayKafkaBroker | undefined;
  business: TestBusiness;
  /** Conversations with an open window, one per contact. */
  conversations: string[];
  /** The business's tokens: each has 60 requests a minute. */
  tokens: string[];
  stop(): Promise<void>;
}

export interface FaultStackOptions {
  ownMongo?: boolean;
  ownRedis?: boolean;
  ownKafka?: boolean;
  conversations?: number;
  tokens?: number;
  env?: Record<string, string>;
  /** Extra environment of one process by its name (LocalStackOptions.processEnv). */
  processEnv?: Record<string, Record<string, string>>;
  /** actions-runner replicas (LocalStackOptions.actionsRunners; default 1). */
  actionsRunners?: number;
  /** Replicas of the other apps (LocalStackOptions; 1 each by default). */
  replicas?: Pick<LocalStackOptions, 'gateways' | 'conversationsServices' | 'schedulers'>;
  /** Adds to the business's seed (templates, channel limits...) before it is loaded. */
  seed?: (seed: BusinessSeedInput) => void;
}

export async function startFaultStack(options: FaultStackOptions = {}): Promise<FaultStack> {
  const fakes = await startFakes();
  const mongo = options.ownMongo ? await startThrowawayMongoServer('memory') : undefined;
  const redis = options.ownRedis ? await startThrowawayRedisServer() : undefined;
  const kafka = options.ownKafka ? await startThrowawayKafkaBroker() : undefined;
  const stack = new LocalStack({
    build: false,
    env: { ...fakes.env, ...(redis ? { REDIS_URL: redis.url } : {}), ...(kafka ? { KAFKA_BROKERS: kafka.brokers } : {}), ...options.env },
    fakes: { chatApiBaseUrl: fakes.chatApiBaseUrl, aiBaseUrl: fakes.aiBaseUrl },
    ...(mongo ? { mongodbUri: mongo.uri } : {}),
    ...(options.actionsRunners ? { actionsRunners: options.actionsRunners } : {}),
    ...options.replicas,
    ...(options.processEnv ? { processEnv: options.processEnv } : {}),
  });
  // A stack that does not come up has stopped its apps: the fakes and servers go too, or jest never exits.
  const description = await stack.start().catch(async (error: unknown) => {
    mongo?.stop();
    await redis?.stop();
    await kafka?.stop();
    await fakes.stop();
    throw error;
  });
  await connectToDatabase(description.env['MONGODB_URI']!, { serverSelectionTimeoutMS: 30_000 });
  const conversations: string[] = [];
  const tokens = Array.from({ length: options.tokens ?? 5 }, () => generateApiToken());
  const business = await createTestBusinessIn(description, (seed) => {
    seed.api_tokens = [...(seed.api_tokens ?? []), ...tokens.map((token) => ({ uuid: randomUUID(), token }))];
    for (let index = 0; index < (options.conversations ?? 10); index += 1) {
      const uuid = randomUUID();
      conversations.push(uuid);
      contactSeed(seed, { conversation: { uuid, messages: [{ uuid: randomUUID(), is_from_customer: true, body: 'Hola', content_type: 'text', created_at: minutesAgo(5) }] } });
    }
    options.seed?.(seed);
  });
  return {
    stack,
    description,
    fakes,
    mongo,
    redis,
    kafka,
    business,
    conversations,
    tokens,
    stop: async () => {
      mongo?.resume();
      await stack.stop();
      // A server of the stack's own goes with it; the shared server keeps no database of a stopped stack.
      if (mongo) await disconnectMongo();
      else await dropConnectedDatabase();
      mongo?.stop();
      // While the stack's Redis still answers: a client left open would keep reconnecting to it.
      await closeStackRedisConnections();
      await redis?.stop();
      await kafka?.stop();
      await fakes.stop();
    },
  };
}

/** The notes stored with this body (a note's text identifies the request that added it). */
export async function notesWithBody(body: string): Promise<number> {
  return storedCollection('timeline_events').countDocuments({ kind: 'note', body });
}

/** One line of the fault specs' results, for the closing figures. */
export function reportFault(name: string, figures: Record<string, number>): void {
  console.log(`[fault] ${name}: ${Object.entries(figures).map(([key, value]) => `${key} ${value}`).join(', ')}`);
}

/** One submitted action group of a load: its note and text identify what it did. */
export interface SubmittedGroup {
  note: string;
  text: string;
  status: number;
  uuid: string | undefined;
}

/**
 * Submits action groups (a note and a text send each, both unique) at `perSecond` for `seconds`,
 * across the business's tokens and conversations, while `during` injects the fault. A request that
 * cannot reach a gateway counts as status 0.
 */
export async function actionGroupLoad(fault: FaultStack, options: { perSecond: number; seconds: number }, during: () => Promise<void>): Promise<SubmittedGroup[]> {
  const submitted: SubmittedGroup[] = [];
  const inFlight: Promise<void>[] = [];
  const clients = fault.tokens.map((token) => fault.business.api.withToken(token));
  const total = options.perSecond * options.seconds;
  const started = Date.now();
  const load = (async () => {
    for (let index = 0; index < total; index += 1) {
      const wait = started + (index * 1000) / options.perSecond - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const note = `fault group ${index} note ${randomUUID()}`;
      const text = `fault group ${index} text ${randomUUID()}`;
      const body = { conversation: { uuid: fault.conversations[index % fault.conversations.length] }, actions: [{ type: 'context_note', note }, { type: 'send_message', text }] };
      inFlight.push(
        clients[index % clients.length]!.post('/conversation/actions', body).then(
          (response) => void submitted.push({ note, text, status: response.status, uuid: response.body?.action_group?.uuid }),
          () => void submitted.push({ note, text, status: 0, uuid: undefined }),
        ),
      );
    }
  })();
  await during();
  await load;
  await Promise.all(inFlight);
  return submitted;
}

/** The answer the conversations service records for a send whose provider call a crash cut off (OutboundMessageStore). */
const OUTCOME_UNKNOWN = /the outcome is unknown, so the message is not sent again/;
/** How long a provider call may be in flight (CHAT_API_TIMEOUT_MS, the conversations service's default). */
const PROVIDER_CALL_TIMEOUT_MS = 15_000;

export interface SettleOptions {
  timeoutMs?: number;
  /**
   * When the conversations service was killed (ms since the epoch). A send whose provider call was
   * in flight at such a kill cannot be known to have reached the provider: it ends failed with
   * SEND_FAILED "outcome unknown" and its group escalates, never sent again (docs/messaging.md,
   * "Exactly once"). Such a group counts as `cutOff`, not lost, only when all of that holds, the
   * provider never got its text, and its message was claimed for the call within the call timeout
   * before one of these kills.
   */
  conversationsKilledAt?: number[];
}

/** Waits until every accepted group is final, then counts what each did: its note stored, its text sent. */
export async function settleGroups(
  fault: FaultStack,
  groups: SubmittedGroup[],
  { timeoutMs = 240_000, conversationsKilledAt = [] }: SettleOptions = {},
): Promise<{ accepted: number; completed: number; lost: number; twice: number; cutOff: number; refusedButRun: number }> {
  const accepted = groups.filter((group) => group.status === 202);
  const stored = storedCollection<{ _id: string; status: string }>('action_groups');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const processing = await stored.countDocuments({ _id: { $in: accepted.map((group) => group.uuid!) }, status: 'processing' });
    if (processing === 0) break;
    if (Date.now() > deadline) throw new Error(`${processing} accepted groups still processing after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const sends = fault.fakes.cloudApi.sentMessages().map((record) => JSON.stringify(record.body));
  const sentCount = (text: string) => sends.filter((body) => body.includes(text)).length;
  let completed = 0;
  let lost = 0;
  let twice = 0;
  let cutOff = 0;
  let refusedButRun = 0;
  for (const group of groups) {
    const notes = await notesWithBody(group.note);
    const sent = sentCount(group.text);
    if (notes > 1 || sent > 1) twice += 1;
    if (group.status === 202) {
      if (notes === 1 && sent === 1) completed += 1;
      else if (notes === 1 && sent === 0 && (await cutOffByKill(group, conversationsKilledAt))) cutOff += 1;
      else {
        lost += 1;
        console.log(`[fault] lost group ${group.uuid}: notes ${notes}, sent ${sent}, stored ${JSON.stringify(await stored.findOne({ _id: group.uuid! }))}`);
      }
    } else if (notes > 0 || sent > 0) {
      // Refused after its command was produced (a gateway or runner cut off mid-answer): it ran once.
      refusedButRun += 1;
    }
  }
  return { accepted: accepted.length, completed, lost, twice, cutOff, refusedButRun };
}

/** Whether the group's send was cut off in its provider call by a kill of the conversations service (see SettleOptions). */
async function cutOffByKill(group: SubmittedGroup, conversationsKilledAt: number[]): Promise<boolean> {
  type StoredGroup = { status: string; escalated: boolean; actions: { type: string; status: string; error: { code: string; message: string } | null }[] };
  const stored = await storedCollection<StoredGroup & { _id: string }>('action_groups').findOne({ _id: group.uuid! });
  const send = stored?.actions.find((action) => action.type === 'send_message');
  if (!stored?.escalated || send?.status !== 'failed' || send.error?.code !== 'SEND_FAILED' || !OUTCOME_UNKNOWN.test(send.error.message)) return false;
  const message = await storedCollection<{ _id: string; status: string; sending_started_at: Date | null }>('messages').findOne({ body: group.text });
  const claimedAt = message?.status === 'failed' ? message.sending_started_at?.getTime() : undefined;
  return claimedAt !== undefined && conversationsKilledAt.some((killedAt) => claimedAt <= killedAt && killedAt - claimedAt <= PROVIDER_CALL_TIMEOUT_MS);
}
