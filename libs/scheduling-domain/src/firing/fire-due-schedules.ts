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
  /**
   * Which chunk of the due pending schedules to claim first (taken modulo their count; default:
   * random), so replicas that found the same due schedules start apart instead of racing for
   * the same chunks.
   */
  firstChunk?: number;
}

/** What a pass found due: pending schedules to claim, and claimed firings whose lease expired. */
export interface DueWork {
  pending: readonly DueSchedule[];
  leaseExpired: readonly DueSchedule[];
}

interface ClaimedChunk {
  schedules: readonly DueSchedule[];
  firedAt: Date;
  takeover: boolean;
}

/**
 * The firing step, in three phases so that a schedule is fired (claimed: pending -> firing, its
 * `fired_at` set, a DELETE now answers 409) as soon after it fell due as the claims alone allow,
 * before any of the deliveries it starts compete for the machine:
 *  1. claim every chunk: one update each claims the schedules still in the state the pass saw
 *     (or renews an expired lease); when it took fewer than the whole chunk (another replica or a
 *     cancellation came first), one read by id answers which this claim holds;
 *  2. produce each claimed chunk's commands in one request (keyed by conversation, id = schedule
 *     uuid, built from what the due-schedule query read);
 *  3. record each produced chunk as produced (`produced_at`, the lease removed).
 * A replica that dies before a chunk's produce leaves its lease to expire, and any replica takes
 * the firing over; copies of a command that reach the actions-runner run the schedule once.
 * Answers how many commands this call produced.
 */
export async function fireDueSchedules(work: DueWork, dependencies: FiringStepDependencies, options: FiringStepOptions): Promise<number> {
  const claimed: ClaimedChunk[] = [];
  for (const [schedules, takeover] of [
    [work.pending, false],
    [work.leaseExpired, true],
  ] as const) {
    for (const chunk of chunksOf(schedules, options.chunkSize, takeover ? 0 : options.firstChunk)) {
      try {
        const held = await claimChunk(chunk, takeover, dependencies, options);
        if (held) claimed.push(held);
      } catch (error) {
        // A claim that failed before taking effect leaves the chunk due; one that took effect is taken over after its lease.
        dependencies.logger.warn({ err: error, schedules: chunk.length, takeover }, 'scheduled messages: claiming a chunk failed');
      }
    }
  }
  const produced: { chunk: ClaimedChunk; at: Date }[] = [];
  for (const chunk of claimed) {
    try {
      await dependencies.publisher.submitMany(chunk.schedules.map((schedule) => ({ conversationId: schedule.conversation_id, command: commandOf(schedule, chunk.firedAt) })));
      produced.push({ chunk, at: dependencies.clock.now() });
    } catch (error) {
      // Claimed and not produced: taken over once its lease expires.
      dependencies.logger.warn({ err: error, schedules: chunk.schedules.length, takeover: chunk.takeover }, 'scheduled messages: producing a chunk failed');
    }
  }
  for (const { chunk, at } of produced) await markProduced(chunk, at, dependencies);
  return produced.reduce((count, { chunk }) => count + chunk.schedules.length, 0);
}

/** The schedules in chunks, starting with chunk `first` and wrapping around. */
function chunksOf(schedules: readonly DueSchedule[], size: number, first = Math.floor(Math.random() * Number.MAX_SAFE_INTEGER)): DueSchedule[][] {
  const chunks: DueSchedule[][] = [];
  for (let start = 0; start < schedules.length; start += size) chunks.push(schedules.slice(start, start + size));
  const rotation = chunks.length === 0 ? 0 : first % chunks.length;
  return [...chunks.slice(rotation), ...chunks.slice(0, rotation)];
}

async function claimChunk(chunk: readonly DueSchedule[], takeover: boolean, dependencies: FiringStepDependencies, options: FiringStepOptions): Promise<ClaimedChunk | undefined> {
  const { repository, clock } = dependencies;
  const now = clock.now();
  const claim: FireClaim = {
    claim: `${options.replicaId}/${randomUUID()}`,
    leaseUntil: new Date(now.getTime() + options.leaseMs),
    at: now,
    entry: scheduleHistoryEntry('fired', 'firing', now, { detail: takeover ? { replica: options.replicaId, takeover: true } : { replica: options.replicaId } }),
  };
  const ids = chunk.map((schedule) => schedule._id);
  const claimedCount = takeover ? await repository.takeOverExpiredInAnyBusiness(ids, now, claim) : await repository.claimPendingInAnyBusiness(ids, claim);
  if (claimedCount === 0) return undefined;
  if (claimedCount === chunk.length) return { schedules: chunk, firedAt: now, takeover };
  const held = await repository.claimedInAnyBusiness(ids, claim.claim);
  return { schedules: chunk.filter((schedule) => held.has(schedule._id)), firedAt: now, takeover };
}

async function markProduced(chunk: ClaimedChunk, at: Date, dependencies: FiringStepDependencies): Promise<void> {
  const { schedules, firedAt, takeover } = chunk;
  try {
    await dependencies.repository.markProducedInAnyBusiness(schedules.map((schedule) => schedule._id), at);
  } catch (error) {
    // Produced but not marked: a takeover after the lease produces the commands again, which run the schedule once.
    dependencies.logger.warn({ err: error, schedules: schedules.length }, 'scheduled messages: recording a chunk as produced failed');
  }
  // Tester schedules are due on their business's virtual clock: their lateness means nothing here.
  for (const schedule of schedules) if (!schedule.is_tester) cmsgMetrics.scheduleFired((firedAt.getTime() - schedule.schedule_at.getTime()) / 1000);
  dependencies.logger.info(
    { schedules: schedules.length, takeover, max_lateness_ms: firedAt.getTime() - Math.min(...schedules.map((schedule) => schedule.schedule_at.getTime())), produced_after_ms: at.getTime() - firedAt.getTime() },
    'scheduled messages fired',
  );
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
