import { type ScheduledMessageCommand, createScheduledMessageCommand, scheduleHistoryEntry } from '@cmsg/conversation-commands';
import type { DueSchedule, FireClaim, ScheduledMessageRepository } from '@cmsg/dal';
import { type Logger, cmsgMetrics } from '@cmsg/platform';
import { randomUUID } from 'node:crypto';
import type { Clock, ConversationCommandPublisher } from '../ports';

export interface FiringStepDependencies {
  repository: Pick<ScheduledMessageRepository, 'claimPendingInAnyBusiness' | 'takeOverExpiredInAnyBusiness' | 'claimedInAnyBusiness' | 'markProducedInAnyBusiness'>;
  publisher: ConversationCommandPublisher;
  clock: Clock;
  logger: Logger;
}

export interface FiringStepOptions {
  /** This process, as recorded in each claim. */
  replicaId: string;
  /** A claim whose replica died before producing the commands is taken over after this long. */
  leaseMs: number;
  /** Schedules claimed by one update and produced in one request. */
  chunkSize: number;
}

/** What a pass found due: pending schedules to claim, and claimed firings whose lease expired. */
export interface DueWork {
  pending: readonly DueSchedule[];
  leaseExpired: readonly DueSchedule[];
}

/**
 * The firing step. Chunk by chunk: one update claims the schedules still in the state the pass
 * saw (pending -> firing; or an expired lease renewed), one request produces their commands (keyed
 * by conversation, id = schedule uuid, built from what the due-schedule query read), and one update
 * records them as produced. When the claim took fewer than the whole chunk (another replica or a
 * cancellation came first), one read by id answers which this claim holds. A replica that dies between its claim and the produce leaves
 * the lease to expire, and any replica takes the firing over; copies of a command that reach the
 * actions-runner run the schedule once. Answers how many commands this call produced.
 */
export async function fireDueSchedules(work: DueWork, dependencies: FiringStepDependencies, options: FiringStepOptions): Promise<number> {
  let fired = 0;
  for (const [schedules, takeover] of [
    [work.pending, false],
    [work.leaseExpired, true],
  ] as const) {
    for (let start = 0; start < schedules.length; start += options.chunkSize) {
      const chunk = schedules.slice(start, start + options.chunkSize);
      try {
        fired += await fireChunk(chunk, takeover, dependencies, options);
      } catch (error) {
        // Whatever this chunk claimed and did not produce is taken over once its lease expires.
        dependencies.logger.warn({ err: error, schedules: chunk.length, takeover }, 'scheduled messages: firing a chunk failed');
      }
    }
  }
  return fired;
}

async function fireChunk(chunk: readonly DueSchedule[], takeover: boolean, dependencies: FiringStepDependencies, options: FiringStepOptions): Promise<number> {
  const { repository, publisher, clock, logger } = dependencies;
  const now = clock.now();
  const claim: FireClaim = {
    claim: `${options.replicaId}/${randomUUID()}`,
    leaseUntil: new Date(now.getTime() + options.leaseMs),
    at: now,
    entry: scheduleHistoryEntry('fired', 'firing', now, { detail: takeover ? { replica: options.replicaId, takeover: true } : { replica: options.replicaId } }),
  };
  const ids = chunk.map((schedule) => schedule._id);
  const claimedCount = takeover ? await repository.takeOverExpiredInAnyBusiness(ids, now, claim) : await repository.claimPendingInAnyBusiness(ids, claim);
  if (claimedCount === 0) return 0;
  let claimed = chunk;
  if (claimedCount < chunk.length) {
    const held = await repository.claimedInAnyBusiness(ids, claim.claim);
    claimed = chunk.filter((schedule) => held.has(schedule._id));
  }
  await publisher.submitMany(claimed.map((schedule) => ({ conversationId: schedule.conversation_id, command: commandOf(schedule, now) })));
  await repository.markProducedInAnyBusiness(claimed.map((schedule) => schedule._id));
  // Tester schedules are due on their business's virtual clock: their lateness means nothing here.
  for (const schedule of claimed) if (!schedule.is_tester) cmsgMetrics.scheduleFired((now.getTime() - schedule.schedule_at.getTime()) / 1000);
  logger.info({ schedules: claimed.length, takeover, max_lateness_ms: now.getTime() - Math.min(...claimed.map((schedule) => schedule.schedule_at.getTime())) }, 'scheduled messages fired');
  return claimed.length;
}

/** fired_at is the claim's time: a takeover produces the command again with its own. */
function commandOf(schedule: DueSchedule, firedAt: Date): ScheduledMessageCommand {
  return createScheduledMessageCommand({
    schedule_uuid: schedule._id,
    business_id: schedule.business_id,
    conversation_uuid: schedule.conversation_id,
    token_uuid: schedule.created_by_token_id ?? '',
    executor_kind: schedule.executor_kind,
    due_at: schedule.schedule_at.toISOString(),
    fired_at: firedAt.toISOString(),
    request_id: null,
  });
}
