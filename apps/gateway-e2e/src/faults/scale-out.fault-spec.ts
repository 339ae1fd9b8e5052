import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { TOPIC } from '@cmsg/platform';
import { localIn, makeAllDueNow, storedSchedule } from '../scheduled-messages/scheduling-fixtures';
import { type BroadcastFaultStack, auditBroadcast, createBroadcast, insertAudience, sendsByRunner, startBroadcastFaultStack, waitForBroadcast } from './broadcast-fault-fixtures';
import { type SubmittedGroup, reportFault, settleGroups } from './fault-stack';

const RECIPIENTS = 1_000;
const GROUPS = 48;
/** One per conversation: a conversation holds one pending schedule at a time. */
const CONVERSATIONS = 12;
const ZONE = 'America/Mexico_City';
const SCHEDULERS: Record<string, string> = { scheduler: 'scheduler-1', 'scheduler-2': 'scheduler-2' };

interface LogLine {
  msg?: string;
  topic?: string;
  partitions?: number[];
  action_group?: string;
}

/**
 * Two replicas of every app on one stack (issue 30): two gateways, two conversations services, two
 * schedulers and two actions-runners, the gRPC clients balancing over both replicas of each service
 * (round_robin over the `ipv4:` list of their address). Action groups, schedules and a broadcast run
 * through it at once: the command topic's partitions and the broadcast's recipients are shared by
 * the two runners, every replica of every service serves calls, and nothing is lost or done twice.
 * A stack of its own, so it runs with the fault specs (jest.faults.config.js).
 */
describe('two replicas of every app', () => {
  let fault: BroadcastFaultStack;
  const greetingTemplate = randomUUID();

  beforeAll(async () => {
    fault = await startBroadcastFaultStack({
      maxMessagesPerSecond: 1_000,
      conversations: CONVERSATIONS,
      tokens: 4,
      replicas: { gateways: 2, conversationsServices: 2, schedulers: 2 },
      // Small firing batches, polled often, so both schedulers find due schedules.
      processEnv: Object.fromEntries(Object.entries(SCHEDULERS).map(([name, replica]) => [name, { SCHEDULER_REPLICA_ID: replica, SCHEDULER_POLL_INTERVAL_MS: '200', SCHEDULER_BATCH_SIZE: '2' }])),
      seed: (seed) => {
        seed.time_zone = ZONE;
        seed.templates!.push({ uuid: greetingTemplate, name: 'greeting', language: 'es_MX', status: 'approved', category: 'utility', body: 'Hola, ¿seguimos en contacto?', channel: seed.channels![0]!.public_key });
      },
    });
  }, 240_000);

  afterAll(async () => {
    await fault?.stop();
  });

  const logOf = (name: string): LogLine[] =>
    readFileSync(fault.stack.process(name).logFile, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);

  it('shares the command partitions and the broadcast recipients between the runners, every replica serving, nothing lost or done twice', async () => {
    const marker = `bscale${randomBytes(5).toString('hex')}`;
    await insertAudience(fault, RECIPIENTS, marker);
    const gateways = fault.description.gatewayUrls;
    const clients = fault.tokens.map((token, index) => fault.business.api.withToken(token).atGateway(gateways[index % gateways.length]!));
    const broadcastId = await createBroadcast(fault, marker);

    // Action groups and schedules through both gateways while the broadcast sends.
    const groups: SubmittedGroup[] = await Promise.all(
      Array.from({ length: GROUPS }, async (_, index) => {
        const note = `scale group ${index} note ${randomUUID()}`;
        const text = `scale group ${index} text ${randomUUID()}`;
        const body = { conversation: { uuid: fault.conversations[index % CONVERSATIONS] }, actions: [{ type: 'context_note', note }, { type: 'send_message', text }] };
        const response = await clients[index % clients.length]!.post('/conversation/actions', body);
        return { note, text, status: response.status, uuid: response.body?.action_group?.uuid };
      }),
    );
    const scheduleTexts = fault.conversations.map((_, index) => `scale schedule ${index} ${randomUUID()}`);
    const schedules: string[] = [];
    for (const [index, conversation] of fault.conversations.entries()) {
      const created = await clients[index % clients.length]!.post('/conversation/scheduled-message', {
        executor_kind: 'human_user',
        conversation: { uuid: conversation },
        schedule_at: localIn(ZONE, 10),
        message_kind: 'message',
        payload: { kind: 'message', text: scheduleTexts[index] },
        template_uuid: greetingTemplate,
      });
      expect(created.status).toBe(201);
      schedules.push(created.body.data.uuid);
    }
    await makeAllDueNow(schedules);

    await waitForBroadcast(broadcastId, (broadcast) => broadcast.status === 'completed', 180_000, 'completed');
    const outcome = await settleGroups(fault, groups);
    const deadline = Date.now() + 60_000;
    while ((await Promise.all(schedules.map(storedSchedule))).some((schedule) => schedule?.status !== 'sent') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const storedSchedules = await Promise.all(schedules.map(storedSchedule));
    const sends = fault.fakes.cloudApi.sentMessages().map((record) => JSON.stringify(record.body));
    const scheduleSends = scheduleTexts.map((text) => sends.filter((body) => body.includes(text)).length);
    const firedBy = (replica: string) => storedSchedules.filter((schedule) => schedule?.history.some((entry) => entry.event === 'fired' && (entry as { detail?: { replica?: string } }).detail?.replica === replica)).length;

    // The command topic's partitions, as each runner last logged them: two disjoint shares of all.
    const commandsTopic = `${fault.description.env['KAFKA_TOPIC_PREFIX']}${TOPIC.conversationCommands}`;
    const runnerLogs = ['actions-runner', 'actions-runner-2'].map(logOf);
    const shares = runnerLogs.map((log) => log.filter((line) => line.msg === 'command stream: joined group' && line.topic === commandsTopic).at(-1)?.partitions ?? []);
    const runBy = runnerLogs.map((log) => log.filter((line) => line.msg === 'action group finished').map((line) => line.action_group!));
    const broadcastSends = sendsByRunner(fault);
    const audit = await auditBroadcast(fault, broadcastId, marker);
    const calls = Object.fromEntries(['conversations', 'conversations-2', 'scheduler', 'scheduler-2'].map((name) => [name, logOf(name).filter((line) => line.msg === 'grpc call finished').length]));

    reportFault('two replicas of every app', {
      groups_accepted: outcome.accepted,
      groups_completed: outcome.completed,
      groups_lost: outcome.lost,
      groups_twice: outcome.twice,
      'command_partitions.runner-1': shares[0]!.length,
      'command_partitions.runner-2': shares[1]!.length,
      'groups_run.runner-1': runBy[0]!.length,
      'groups_run.runner-2': runBy[1]!.length,
      ...Object.fromEntries(Object.entries(broadcastSends).map(([caller, count]) => [`send_calls.${caller}`, count])),
      broadcast_accepted: audit.accepted,
      broadcast_called_twice: audit.calledTwice,
      ...Object.fromEntries(Object.entries(calls).map(([name, count]) => [`grpc_calls.${name}`, count])),
      'schedules_fired.scheduler-1': firedBy('scheduler-1'),
      'schedules_fired.scheduler-2': firedBy('scheduler-2'),
      schedules_sent: storedSchedules.filter((schedule) => schedule?.status === 'sent').length,
    });

    // Partitions: each runner holds a share, the shares are disjoint and cover the topic.
    expect(shares.every((share) => share.length > 0)).toBe(true);
    expect(shares[0]!.filter((partition) => shares[1]!.includes(partition))).toEqual([]);
    // Action groups: all accepted, each done once, run by both runners, none by both.
    expect(groups.map((group) => group.status)).toEqual(Array(GROUPS).fill(202));
    expect({ lost: outcome.lost, twice: outcome.twice, completed: outcome.completed }).toEqual({ lost: 0, twice: 0, completed: GROUPS });
    expect(runBy.every((ids) => ids.length > 0)).toBe(true);
    expect(runBy[0]!.filter((id) => runBy[1]!.includes(id))).toEqual([]);
    // The broadcast: every recipient sent once, its sends made by both runners.
    expect({ status: audit.status, calledTwice: audit.calledTwice, sentNotCalled: audit.sentNotCalled, open: audit.open, countsGap: audit.countsGap }).toEqual({ status: 'completed', calledTwice: 0, sentNotCalled: 0, open: 0, countsGap: 0 });
    expect(audit.counts).toMatchObject({ total: RECIPIENTS, sent: RECIPIENTS });
    expect(Object.values(broadcastSends).every((count) => count > 0)).toBe(true);
    // Every replica of the gRPC services served calls; every schedule was sent once.
    expect(Object.values(calls).every((count) => count > 0)).toBe(true);
    expect(scheduleSends).toEqual(Array(CONVERSATIONS).fill(1));
  });
});
