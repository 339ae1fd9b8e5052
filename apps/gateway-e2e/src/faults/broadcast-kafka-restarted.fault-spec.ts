import { randomBytes } from 'node:crypto';
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
import { reportFault } from './fault-stack';

/** Recipients: the 5,000 of issue 29, as in broadcast-killed.fault-spec.ts. */
const RECIPIENTS = 5_000;

/**
 * Kafka stopped and started again in the middle of a broadcast (a broker of the stack's own): the
 * slices in Kafka and the runners' group ride it out, no process dies, and the broadcast completes
 * with every recipient sent once (CONTRACT 10.4).
 */
describe('a broadcast while Kafka restarts', () => {
  let fault: BroadcastFaultStack;

  beforeAll(async () => {
    fault = await startBroadcastFaultStack({ maxMessagesPerSecond: 1_000, ownKafka: true });
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
    await fault.kafka!.restart();
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
