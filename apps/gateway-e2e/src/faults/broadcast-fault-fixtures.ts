import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { BroadcastsServiceClient, type ServiceClient, createServiceClient } from '@cmsg/proto';
import { type CloudApiRecord, storedCollection, uniquePhone } from '@cmsg/testing';
import { replicaName } from '@cmsg/testing/local-stack';
import { LOCAL_PLAINTEXT } from '@cmsg/testing/grpc';
import { pacedSenderOptionsFor, sendLeaseMs } from '@cmsg/send-engine';
import { type FaultStack, type FaultStackOptions, startFaultStack } from './fault-stack';

/**
 * The broadcast fault specs' stack (CONTRACT 10.4, docs/broadcasts.md): two actions-runner
 * replicas in one consumer group, an approved template, and a channel allowed `maxMessagesPerSecond`.
 */
export interface BroadcastFaultStack extends FaultStack {
  templateId: string;
  /** The channel's stored id and its Cloud API phone number id (the fake's throughput scope). */
  channelId: string;
  phoneNumberId: string;
  broadcasts: ServiceClient<BroadcastsServiceClient>;
}

/**
 * The name the conversations service logs as `caller` on each runner replica's calls: each replica
 * presents its own GRPC_CLIENT_TOKEN, so the conversations log tells which replica sent what (the
 * actions-runner itself logs nothing per slice or recipient).
 */
export const RUNNER_CALLERS: Record<string, string> = { 'actions-runner': 'runner-1', 'actions-runner-2': 'runner-2' };

/**
 * Recipients the runners' group has in flight at most: each of the 12 partitions of broadcast-sends
 * (BROADCAST_TOPIC_PARTITIONS) is sent by one replica, one slice at a time, 4 recipients of a slice
 * at once (BROADCAST_SEND_CONCURRENCY); BROADCAST_SLICE_CONCURRENCY (12) lets one replica hold them all.
 */
export const RUNNER_IN_FLIGHT_BOUND = 12 * 4;

/**
 * The send lease: a message still `sending` this long after its start was cut off by a crash, and its
 * recipient becomes `unknown` (conversations main.ts: the pacing waits, every call of a send at
 * CHAT_API_TIMEOUT_MS, the 131056 retry waits, and 15 s). 3,000 ms calls make it 93 s instead of
 * 177 s; the fake answers in milliseconds.
 */
export const CHAT_API_TIMEOUT_MS = 3_000;
export const SEND_LEASE_MS = sendLeaseMs(CHAT_API_TIMEOUT_MS, pacedSenderOptionsFor(6_000));

export interface BroadcastFaultStackOptions extends Pick<FaultStackOptions, 'replicas' | 'processEnv' | 'conversations' | 'tokens' | 'seed'> {
  maxMessagesPerSecond: number;
  ownKafka?: boolean;
}

export async function startBroadcastFaultStack(options: BroadcastFaultStackOptions): Promise<BroadcastFaultStack> {
  const templateId = randomUUID();
  const tokens = Object.fromEntries(Object.values(RUNNER_CALLERS).map((caller) => [caller, randomBytes(16).toString('hex')]));
  const authTokens = { GRPC_AUTH_TOKENS: Object.entries(tokens).map(([caller, token]) => `${caller}:${token}`).join(',') };
  const conversationsServices = Array.from({ length: options.replicas?.conversationsServices ?? 1 }, (_, index) => replicaName('conversations', index));
  const fault = await startFaultStack({
    conversations: options.conversations ?? 1,
    tokens: options.tokens ?? 1,
    actionsRunners: 2,
    ownKafka: options.ownKafka ?? false,
    ...(options.replicas ? { replicas: options.replicas } : {}),
    env: {
      // The group notices a killed replica after 6 s (the least the runner accepts) instead of 30 s.
      COMMAND_SESSION_TIMEOUT_MS: '6000',
      CHAT_API_TIMEOUT_MS: String(CHAT_API_TIMEOUT_MS),
    },
    processEnv: {
      ...Object.fromEntries(conversationsServices.map((name) => [name, authTokens])),
      ...Object.fromEntries(Object.entries(RUNNER_CALLERS).map(([name, caller]) => [name, { GRPC_CLIENT_TOKEN: tokens[caller]! }])),
      ...options.processEnv,
    },
    seed: (seed) => {
      const channel = seed.channels![0]!;
      channel.max_messages_per_second = options.maxMessagesPerSecond;
      seed.templates = [
        { uuid: templateId, name: 'broadcast_notice', language: 'es_MX', status: 'approved', category: 'utility', body: 'Hola {{1}}, tenemos novedades.', channel: channel.public_key },
      ];
      options.seed?.(seed);
    },
  });
  try {
    const channel = await storedCollection('channels').findOne({ business_id: fault.business.businessId });
    const broadcasts = createServiceClient(BroadcastsServiceClient, { address: fault.description.env['CONVERSATIONS_GRPC_ADDRESS']!, security: LOCAL_PLAINTEXT, deadlineMs: 30_000 });
    await waitForRunnersInGroup(fault);
    return { ...fault, templateId, channelId: channel!._id, phoneNumberId: channel!['phone_number_id'], broadcasts };
  } catch (error) {
    await fault.stop();
    throw error;
  }
}

/** Both replicas have joined their consumer groups (the broadcast-sends consumer is running before the command stream joins). */
async function waitForRunnersInGroup(fault: FaultStack, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const name of Object.keys(RUNNER_CALLERS)) {
    while (!readFileSync(fault.stack.process(name).logFile, 'utf8').includes('command stream: joined group')) {
      if (Date.now() > deadline) throw new Error(`${name} did not join its group within ${timeoutMs} ms:\n${fault.stack.process(name).logTail(20)}`);
      await pause(250);
    }
  }
}

/**
 * `count` contacts with a conversation each on the business's channel, all named `marker` (the
 * broadcast's filter), written in bulk as clones of the contact and conversation the seed stored:
 * the seed loader upserts one document at a time, far too slow for thousands.
 */
export async function insertAudience(fault: FaultStack, count: number, marker: string): Promise<string[]> {
  const conversationTemplate = await storedCollection('conversations').findOne({ _id: fault.conversations[0]! });
  const contactTemplate = await storedCollection('contacts').findOne({ _id: conversationTemplate!['contact_id'] });
  const phones: string[] = [];
  const contacts = [];
  const conversations = [];
  for (let index = 0; index < count; index += 1) {
    const phone = uniquePhone();
    phones.push(phone);
    const contactId = randomUUID();
    contacts.push({ ...contactTemplate!, _id: contactId, first_name: marker, first_name_key: marker, last_name: `n${index}`, last_name_key: `n${index}`, phone, phone_key: phone.slice(1), outbox: [], revision: 0 });
    conversations.push({
      ...conversationTemplate!,
      _id: randomUUID(),
      contact_id: contactId,
      contact: { ...conversationTemplate!['contact'], name: `${marker} n${index}`, phone },
      outbox: [],
    });
  }
  for (let start = 0; start < count; start += 1_000) {
    await storedCollection('contacts').insertMany(contacts.slice(start, start + 1_000), { ordered: false });
    await storedCollection('conversations').insertMany(conversations.slice(start, start + 1_000), { ordered: false });
  }
  return phones;
}

/** A broadcast of the approved template to every contact named `marker`; its variable is `marker` too, so the fake's records tell its sends apart. */
export async function createBroadcast(fault: BroadcastFaultStack, marker: string): Promise<string> {
  const created = await fault.broadcasts.rpc.createBroadcast({
    caller: { business_id: fault.business.businessId, token_uuid: '' },
    name: `fault ${marker}`,
    channel: fault.business.channelKey,
    template: { uuid: fault.templateId },
    variables: [{ index: 1, value: marker }],
    header: undefined,
    button_parameters: [],
    audience: { filter: { and: [{ field: 'first_name', op: 'eq', value: marker }] } },
    send_window: undefined,
  });
  return created.uuid;
}

export type StoredBroadcast = { _id: string; status: string; counts: Record<string, number>; started_at?: Date; finished_at?: Date };

export function storedBroadcast(id: string): Promise<StoredBroadcast | null> {
  return storedCollection('broadcasts').findOne({ _id: id }) as Promise<StoredBroadcast | null>;
}

/** Polls the stored broadcast (the conversations service may be down) until `accept` likes it. */
export async function waitForBroadcast(id: string, accept: (broadcast: StoredBroadcast) => boolean, timeoutMs: number, what: string): Promise<StoredBroadcast> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const broadcast = await storedBroadcast(id);
    if (broadcast && accept(broadcast)) return broadcast;
    if (Date.now() > deadline) {
      const byStatus = await recipientsByStatus(id);
      throw new Error(`broadcast ${id} not ${what} after ${timeoutMs} ms: ${JSON.stringify({ status: broadcast?.status, counts: broadcast?.counts, recipients: byStatus })}`);
    }
    await pause(250);
  }
}

/** Accepted sends of the broadcast so far (the fake's records whose body carries its marker). */
export function broadcastCalls(fault: FaultStack, marker: string): CloudApiRecord[] {
  return fault.fakes.cloudApi.requests({ kind: 'message' }).filter((record) => JSON.stringify(record.body).includes(marker));
}

export async function recipientsByStatus(broadcastId: string): Promise<Record<string, number>> {
  const groups = await storedCollection('broadcast_recipients')
    .aggregate<{ _id: string; count: number }>([{ $match: { broadcast_id: broadcastId } }, { $group: { _id: '$status', count: { $sum: 1 } } }])
    .toArray();
  return Object.fromEntries(groups.map((group) => [group._id, group.count]));
}

/** What could still end `unknown` at a kill, taken right after it. */
export interface InFlightAtKill {
  /** Recipients claimed (`sending`). */
  claimed: number;
  /** Their messages inserted and not settled (`sending`): at a kill of the conversations service, exactly those that can end unknown. */
  messagesSending: number;
  /** Calls the fake had received and not yet answered. */
  unansweredAtFake: number;
  /** Accepted sends by then. */
  acceptedBefore: number;
}

export async function inFlightAtKill(fault: FaultStack, broadcastId: string, marker: string): Promise<InFlightAtKill> {
  const calls = broadcastCalls(fault, marker);
  const [claimed, messagesSending] = await Promise.all([
    storedCollection('broadcast_recipients').countDocuments({ broadcast_id: broadcastId, status: 'sending' }),
    storedCollection('messages').countDocuments({ business_id: fault.business.businessId, status: 'sending', operation_id: { $regex: '^broadcast:' } }),
  ]);
  return { claimed, messagesSending, unansweredAtFake: calls.filter((record) => record.status === 0).length, acceptedBefore: calls.filter((record) => record.status === 200).length };
}

interface SendMessageLogEntry {
  caller?: string;
  time: string;
  code: string;
  duration_ms: number;
}

/** The SendMessage calls every conversations service replica logged as finished ("grpc call finished"). */
function sendMessageLog(fault: FaultStack): SendMessageLogEntry[] {
  return fault.stack.processes
    .filter((appProcess) => appProcess.app === 'conversations')
    .flatMap((appProcess) => readFileSync(appProcess.logFile, 'utf8').split('\n'))
    .filter((line) => line.includes('"grpc_method":"sendMessage"'))
    .map((line) => JSON.parse(line) as SendMessageLogEntry);
}

/** SendMessage calls the conversations service finished per runner replica until `untilMs` (by the caller name of each replica's token). */
export function sendsByRunner(fault: FaultStack, untilMs = Number.POSITIVE_INFINITY): Record<string, number> {
  const shares: Record<string, number> = Object.fromEntries(Object.values(RUNNER_CALLERS).map((caller) => [caller, 0]));
  for (const entry of sendMessageLog(fault)) {
    if (entry.caller && entry.caller in shares && Date.parse(entry.time) <= untilMs) shares[entry.caller]! += 1;
  }
  return shares;
}

/** How the SendMessage calls ended (gRPC code or catalog code, as logged) and how long they took. */
export function sendMessageOutcomes(fault: FaultStack): Record<string, number> {
  const entries = sendMessageLog(fault);
  const durations = entries.map((entry) => entry.duration_ms).sort((a, b) => a - b);
  const codes: Record<string, number> = {};
  for (const entry of entries) codes[`code_${entry.code}`] = (codes[`code_${entry.code}`] ?? 0) + 1;
  return { ...codes, p50_ms: durations[Math.floor(durations.length / 2)] ?? 0, max_ms: durations.at(-1) ?? 0 };
}

/** The broadcast's end as the fake and the database saw it (CONTRACT 10.4's exactly once). */
export interface BroadcastAudit {
  status: string;
  counts: Record<string, number>;
  recipients: Record<string, number>;
  /** Recipients still pending or sending. */
  open: number;
  /** counts.total minus the sum of the other counts (0 when they add up). */
  countsGap: number;
  accepted: number;
  /** Recipients (phones) the fake accepted more than one send for. */
  calledTwice: number;
  /** Recipients stored as sent whose phone the fake never accepted a send for. */
  sentNotCalled: number;
  /** Unknown recipients the fake never received a call for (the crash cut them off before their call). */
  unknownNeverCalled: number;
  /** Unknown recipients whose message was stored as sent after all (a send still going when its lease ran out). */
  unknownMessageSent: number;
  /** Failed recipients by the provider code of their error. */
  failedByProviderCode: Record<string, number>;
  throttled: number;
}

export async function auditBroadcast(fault: FaultStack, broadcastId: string, marker: string): Promise<BroadcastAudit> {
  const broadcast = (await storedBroadcast(broadcastId))!;
  const recipients = await storedCollection('broadcast_recipients')
    .find({ broadcast_id: broadcastId }, { projection: { status: 1, phone: 1, message_id: 1, error: 1 } })
    .toArray();
  const unknownMessages = recipients.filter((recipient) => recipient['status'] === 'unknown' && recipient['message_id']).map((recipient) => recipient['message_id'] as string);
  const unknownMessageSent = await storedCollection('messages').countDocuments({ _id: { $in: unknownMessages }, status: 'sent' });
  const failedByProviderCode: Record<string, number> = {};
  for (const recipient of recipients.filter((candidate) => candidate['status'] === 'failed')) {
    const code = String(recipient['error']?.provider_code ?? recipient['error']?.code);
    failedByProviderCode[code] = (failedByProviderCode[code] ?? 0) + 1;
  }
  const calls = broadcastCalls(fault, marker);
  const digits = (phone: string | undefined) => (phone ?? '').replace(/\D/g, '');
  const acceptedBy = new Map<string, number>();
  const receivedBy = new Map<string, number>();
  for (const record of calls) {
    receivedBy.set(digits(record.to), (receivedBy.get(digits(record.to)) ?? 0) + 1);
    if (record.status === 200) acceptedBy.set(digits(record.to), (acceptedBy.get(digits(record.to)) ?? 0) + 1);
  }
  const byStatus: Record<string, number> = {};
  for (const recipient of recipients) byStatus[recipient['status']] = (byStatus[recipient['status']] ?? 0) + 1;
  const { total = 0, ...others } = broadcast.counts;
  return {
    status: broadcast.status,
    counts: broadcast.counts,
    recipients: byStatus,
    open: (byStatus['pending'] ?? 0) + (byStatus['sending'] ?? 0),
    countsGap: total - Object.values(others).reduce((sum, count) => sum + count, 0),
    accepted: calls.filter((record) => record.status === 200).length,
    calledTwice: [...acceptedBy.values()].filter((count) => count > 1).length,
    sentNotCalled: recipients.filter((recipient) => recipient['status'] === 'sent' && !acceptedBy.has(digits(recipient['phone']))).length,
    unknownNeverCalled: recipients.filter((recipient) => recipient['status'] === 'unknown' && !receivedBy.has(digits(recipient['phone']))).length,
    unknownMessageSent,
    failedByProviderCode,
    throttled: calls.filter((record) => record.error_code === 130429).length,
  };
}

/** Resolves once the fake has accepted `count` sends of the broadcast (to kill "in the middle"). */
export async function waitForAccepted(fault: FaultStack, marker: string, count: number, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (broadcastCalls(fault, marker).filter((record) => record.status === 200).length < count) {
    if (Date.now() > deadline) throw new Error(`fewer than ${count} sends accepted within ${timeoutMs} ms`);
    await pause(100);
  }
}

export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
