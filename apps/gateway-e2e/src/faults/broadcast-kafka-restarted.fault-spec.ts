import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { WORKSPACE_ROOT } from '@cmsg/testing';
import {
  type BroadcastFaultStack,
  auditBroadcast,
  broadcastCalls,
  createBroadcast,
  inFlightAtKill,
  insertAudience,
  recipientsByStatus,
  sendsByRunner,
  startBroadcastFaultStack,
  waitForAccepted,
  waitForBroadcast,
} from './broadcast-fault-fixtures';
import { reportFault } from '../fault-stack';

const run = promisify(execFile);

/** Recipients (see broadcast-killed.fault-spec.ts for why not 5,000): enough to outlast the broker's restart. */
const RECIPIENTS = 1_000;

/**
 * Kafka stopped and started again in the middle of a broadcast (the machine's broker; the fault
 * specs run alone): the slices in Kafka and the runners' group ride it out, no process dies, and
 * the broadcast completes with every recipient sent once (CONTRACT 10.4).
 */
describe('a broadcast while Kafka restarts', () => {
  let fault: BroadcastFaultStack;

  beforeAll(async () => {
    fault = await startBroadcastFaultStack({ maxMessagesPerSecond: 1_000 });
  }, 240_000);

  afterAll(async () => {
    await fault?.stop();
  });

  it('completes, every recipient sent once', async () => {
    const marker = `bkafka${randomBytes(5).toString('hex')}`;
    await insertAudience(fault, RECIPIENTS, marker);
    const broadcastId = await createBroadcast(fault, marker);
    const started = Date.now();
    await waitForBroadcast(broadcastId, (broadcast) => broadcast.status === 'running', 60_000, 'running');
    await waitForAccepted(fault, marker, Math.round(RECIPIENTS * 0.15));

    const atRestart = await inFlightAtKill(fault, broadcastId, marker);
    const pendingAtRestart = (await recipientsByStatus(broadcastId))['pending'] ?? 0;
    const restartStarted = Date.now();
    await restartMachineKafka(fault.description.env['KAFKA_BROKERS']!);
    const restartMs = Date.now() - restartStarted;
    const acceptedWhileRestarting = broadcastCalls(fault, marker).filter((record) => record.status === 200).length - atRestart.acceptedBefore;

    await waitForBroadcast(broadcastId, (broadcast) => broadcast.status === 'completed', 240_000, 'completed');
    const completedAfterKafkaMs = Date.now() - restartStarted - restartMs;
    const audit = await auditBroadcast(fault, broadcastId, marker);
    reportFault('broadcast through a Kafka restart', {
      recipients: RECIPIENTS,
      broadcast_ms: Date.now() - started,
      kafka_restart_ms: restartMs,
      completed_after_kafka_back_ms: completedAfterKafkaMs,
      pending_at_restart: pendingAtRestart,
      accepted_before_restart: atRestart.acceptedBefore,
      accepted_while_restarting: acceptedWhileRestarting,
      messages_sending_at_restart: atRestart.messagesSending,
      ...Object.fromEntries(Object.entries(sendsByRunner(fault)).map(([caller, sends]) => [`sends.${caller}`, sends])),
      accepted: audit.accepted,
      called_twice: audit.calledTwice,
      ...Object.fromEntries(Object.entries(audit.recipients).map(([status, count]) => [`recipients.${status}`, count])),
    });

    expect(pendingAtRestart).toBeGreaterThan(0);
    expect(audit.status).toBe('completed');
    expect({ calledTwice: audit.calledTwice, sentNotCalled: audit.sentNotCalled, open: audit.open, countsGap: audit.countsGap }).toEqual({ calledTwice: 0, sentNotCalled: 0, open: 0, countsGap: 0 });
    expect(audit.counts['total']).toBe(RECIPIENTS);
    expect(audit.counts).toMatchObject({ failed: 0, skipped: 0 });
    // No process died: a send in flight at the restart finishes (it needs MongoDB, Redis and the
    // provider, not Kafka), so nothing should end unknown; at most what was in flight could.
    expect(audit.counts['unknown']).toBeLessThanOrEqual(atRestart.messagesSending);
  });
});

/**
 * Stops and starts the machine's broker, the one the stack uses, as kafka-restarted.fault-spec.ts
 * means to. `infra.sh kafka-restart` leaves alone a broker that KAFKA_BROKERS names, and the suite
 * exports KAFKA_BROKERS (tools/scripts/lib.sh infra_up): called with it, it returns at once having
 * restarted nothing. So it runs without it, once the stack's broker is known to be the one infra.sh
 * starts, and the restart is checked to have happened. Asynchronously: the fake Cloud API lives in
 * this process and must go on answering the sends in flight.
 */
async function restartMachineKafka(stackBrokers: string): Promise<void> {
  const infra = path.join(WORKSPACE_ROOT, 'tools/infra/infra.sh');
  const env = { ...process.env };
  delete env['KAFKA_BROKERS'];
  const { stdout } = await run('bash', [infra, 'env'], { env });
  const machineBrokers = /KAFKA_BROKERS=(\S+)/.exec(stdout)?.[1];
  if (machineBrokers !== stackBrokers) throw new Error(`the stack's Kafka (${stackBrokers}) is not the broker infra.sh runs (${machineBrokers}): it cannot be restarted here`);
  const { stderr } = await run('bash', [infra, 'kafka-restart'], { env });
  if (!stderr.includes('kafka: starting Kafka')) throw new Error(`infra.sh kafka-restart did not start Kafka again:\n${stderr}`);
}
