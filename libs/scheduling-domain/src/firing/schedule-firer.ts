import { createScheduledMessageCommand, scheduleDueMinute, scheduleHistoryEntry, SYSTEM_ACTOR, type ScheduledMessageCommand } from '@cmsg/conversation-commands';
import { type BusinessScope, businessScope, claimMany, claimOnce, claimsOfSchedule, holdsScheduleSlot, latestScheduleSlots, readClaim } from '@cmsg/dal';
import type { Logger } from '@cmsg/platform';
import { AsyncResource } from 'node:async_hooks';
import { cancelSchedule } from '../manage/cancel-schedule';
import { minutesToPoll } from './due-minutes';
import type { Clock, ConversationCommandPublisher } from '../ports';
import type { ScheduledMessageRepository, StoredSchedule } from '../scheduled-message.repository';

export interface ScheduleFirerOptions {
  /** This process, as recorded in fire_owner. */
  replicaId: string;
  pollIntervalMs: number;
  /** A firing attempt whose replica died before producing is taken over after this long. */
  leaseMs: number;
  /** A fired schedule the actions-runner has not finished this long after its last command is produced again. */
  staleFiringMs: number;
  /** Produced this many times without an outcome: given up as failed. */
  maxFireAttempts: number;
  batchSize: number;
  concurrency: number;
  /** A schedule not holding its conversation's slot, older than this, is an unfinished create. */
  orphanGraceMs: number;
  /** How often every pending due schedule is looked for whatever its minute bucket (also at start). */
  catchUpIntervalMs: number;
  /** How often fired schedules without an outcome are looked for. */
  staleCheckIntervalMs: number;
}

export const DEFAULT_FIRER_OPTIONS: Omit<ScheduleFirerOptions, 'replicaId'> = {
  pollIntervalMs: 1_000,
  leaseMs: 30_000,
  staleFiringMs: 15 * 60_000,
  maxFireAttempts: 5,
  batchSize: 2000,
  concurrency: 32,
  orphanGraceMs: 60_000,
  catchUpIntervalMs: 300_000,
  staleCheckIntervalMs: 60_000,
};

/** Due schedules fired together: one fate-claim insert and one produce request. */
const FIRING_CHUNK = 500;

export interface ScheduleFirerDependencies {
  repository: ScheduledMessageRepository;
  publisher: ConversationCommandPublisher;
  clock: Clock;
  logger: Logger;
}

interface FireAttempt {
  number: number;
  createdAt: Date;
}

/**
 * Fires due schedules exactly once with any number of replicas, any of which may die at any moment.
 * Every decision is a claim insert (one winner, also on FerretDB whose updates are not isolated):
 *
 * 1. fate `fire`, which is also firing attempt 1 (a cancellation may have won it: then nothing fires);
 * 2. the attempt's winner produces the `scheduled_message` command (id = schedule uuid), keyed by
 *    conversation, then records the schedule as firing;
 * 3. a replica that died in between leaves the fate without a recorded firing: once the attempt is
 *    older than the lease another replica wins attempt 2 and produces the same command again.
 *
 * The executor (actions-runner) runs a schedule once whatever number of copies it gets. Tester
 * schedules are due on their business's virtual clock.
 */
export class ScheduleFirer {
  private readonly options: ScheduleFirerOptions;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private wakeRequested = false;
  private stopped = true;
  /** Passes run outside any request's context, even when a request woke them (logs, request ids). */
  private readonly scheduleOutsideRequests = AsyncResource.bind((delayMs: number) => this.schedule(delayMs));
  /** Past minute buckets that still had pending schedules when last polled. */
  private readonly backlogMinutes = new Set<string>();
  private lastCatchUpAt = Number.NEGATIVE_INFINITY;
  private lastPolledAt = Number.NEGATIVE_INFINITY;
  private lastStaleCheckAt = Number.NEGATIVE_INFINITY;
  /** When this replica first found a schedule's fate claimed by someone else (no reads until a lease passed). */
  private readonly decidedElsewhereSince = new Map<string, number>();

  constructor(
    private readonly dependencies: ScheduleFirerDependencies,
    options: Partial<ScheduleFirerOptions> & { replicaId: string },
  ) {
    this.options = { ...DEFAULT_FIRER_OPTIONS, ...options };
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Polls again as soon as the current pass ends (e.g. the tester clock moved). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.wakeRequested = true;
      return;
    }
    this.scheduleOutsideRequests(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** One pass: every due schedule it can claim is produced; answers how many. */
  async pollOnce(): Promise<number> {
    return (await this.pass()).fired;
  }

  private async pass(): Promise<{ fired: number; full: boolean }> {
    const { repository, clock } = this.dependencies;
    const realNow = clock.now();
    const found = await this.dueRealSchedules(realNow);
    for (const [businessId, offsetMs] of await repository.testerClocks()) {
      found.push(...(await repository.dueTesterSchedules(businessId, new Date(realNow.getTime() + offsetMs), this.options.batchSize)));
    }
    let stale: string[] = [];
    if (realNow.getTime() - this.lastStaleCheckAt >= this.options.staleCheckIntervalMs) {
      this.lastStaleCheckAt = realNow.getTime();
      stale = await repository.staleFiring(new Date(realNow.getTime() - this.options.staleFiringMs), this.options.batchSize);
    }
    // Replicas polling together see the same schedules: each walks them from its own random starting
    // point, so they work on different stretches until they meet (shuffled orders overlap in every
    // chunk, and a chunk whose claims partly lose is inserted one by one).
    const walk = rotateFromRandomStart(found.sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0)));
    const due = walk.slice(0, this.options.batchSize);
    const slots = due.length > 0 ? await latestScheduleSlots(due.map((schedule) => schedule.conversation_id)) : new Map<string, { scheduleId: string | null }>();
    let fired = 0;
    for (let start = 0; start < due.length; start += FIRING_CHUNK) {
      try {
        fired += await this.fireChunk(due.slice(start, start + FIRING_CHUNK), slots);
      } catch (error) {
        // Claimed fates that were not produced are taken over once their lease has passed.
        this.dependencies.logger.warn({ err: error, schedules: Math.min(FIRING_CHUNK, due.length - start) }, 'scheduled message: firing a chunk failed');
      }
    }
    await forEachConcurrently(stale, this.options.concurrency, async (id) => {
      try {
        if (await this.refire(id)) fired += 1;
      } catch (error) {
        this.dependencies.logger.warn({ err: error, schedule_uuid: id }, 'scheduled message: firing attempt failed');
      }
    });
    this.forgetOldDecisions(realNow.getTime());
    return { fired, full: found.length > due.length };
  }

  /**
   * Pending real-time schedules due now, by equality per minute bucket (FerretDB filters those in
   * PostgreSQL): every minute since the last pass (at least the previous and the current one), and
   * past minutes that still had pending schedules. Every pending due schedule whatever its bucket at
   * start and now and then (a long stop, records without a bucket).
   */
  private async dueRealSchedules(now: Date): Promise<StoredSchedule[]> {
    const { repository } = this.dependencies;
    const current = scheduleDueMinute(now);
    const found = new Map<string, StoredSchedule>();
    if (now.getTime() - this.lastCatchUpAt >= this.options.catchUpIntervalMs) {
      this.lastCatchUpAt = now.getTime();
      for (const schedule of await repository.dueRealSchedules(now)) {
        found.set(schedule._id, schedule);
        if (schedule.due_minute && schedule.due_minute < current) this.backlogMinutes.add(schedule.due_minute);
      }
    }
    for (const minute of minutesToPoll(this.backlogMinutes, this.lastPolledAt, now.getTime())) {
      const pending = await repository.pendingInMinute(minute);
      if (pending.length === 0) this.backlogMinutes.delete(minute);
      else this.backlogMinutes.add(minute);
      for (const schedule of pending) if (schedule.schedule_at.getTime() <= now.getTime()) found.set(schedule._id, schedule);
    }
    this.lastPolledAt = now.getTime();
    return [...found.values()];
  }

  /**
   * Fires a chunk of due schedules: the fates of those holding their conversation's slot are
   * claimed in one insert and the winners' commands produced in one request, then their firing is
   * mirrored on their records; each schedule another replica decided goes its own way. Answers how
   * many commands were produced.
   */
  private async fireChunk(chunk: StoredSchedule[], slots: Map<string, { scheduleId: string | null }>): Promise<number> {
    const { clock, logger } = this.dependencies;
    const now = clock.now();
    const held: StoredSchedule[] = [];
    await forEachConcurrently(chunk, this.options.concurrency, async (schedule) => {
      const slotHolder = slots.get(schedule.conversation_id)?.scheduleId;
      const scope = businessScope(schedule.business_id);
      try {
        // No slot log (undefined): the record's mirror decides.
        const holds = slotHolder === undefined ? await holdsScheduleSlot(scope, schedule.conversation_id, schedule._id) : slotHolder === schedule._id;
        if (holds) held.push(schedule);
        else await this.settleUnheld(scope, schedule, now);
      } catch (error) {
        logger.warn({ err: error, schedule_uuid: schedule._id }, 'scheduled message: firing attempt failed');
      }
    });
    // The fate claim is also firing attempt 1; takeovers are attempts 2, 3... (`fire` claims).
    const won = await claimMany('fate', held.map((schedule) => ({ scope: businessScope(schedule.business_id), scheduleId: schedule._id, data: { decision: 'fire', replica: this.options.replicaId } })), now);
    const firstFirings = held.filter((schedule) => won.has(schedule._id));
    if (firstFirings.length > 0) {
      await this.dependencies.publisher.submitMany(firstFirings.map((schedule) => ({ conversationId: schedule.conversation_id, command: this.commandOf(schedule, now) })));
      await this.recordFirstFirings(firstFirings);
    }
    let fired = firstFirings.length;
    await forEachConcurrently(
      held.filter((schedule) => !won.has(schedule._id)),
      this.options.concurrency,
      async (schedule) => {
        try {
          if (await this.fireDecidedElsewhere(schedule)) fired += 1;
        } catch (error) {
          // Nothing was decided that another pass cannot pick up.
          logger.warn({ err: error, schedule_uuid: schedule._id }, 'scheduled message: firing attempt failed');
        }
      },
    );
    return fired;
  }

  /**
   * Mirrors the firings this replica just produced as attempt 1 on their records, one update by id
   * each (a bulk write of many updates would hold a FerretDB connection per statement until it ends,
   * which deadlocks FerretDB 1.24 past its pool size).
   */
  private async recordFirstFirings(schedules: StoredSchedule[]): Promise<void> {
    const { repository, clock, logger } = this.dependencies;
    const at = clock.now();
    const firing = { owner: this.options.replicaId, at, leaseUntil: new Date(at.getTime() + this.options.leaseMs) };
    const entry = scheduleHistoryEntry('fired', 'firing', at, { detail: { replica: this.options.replicaId, attempt: 1 } });
    await forEachConcurrently(schedules, this.options.concurrency, (schedule) => repository.recordFirstFiring(schedule._id, firing, entry));
    for (const schedule of schedules) {
      logger.info({ schedule_uuid: schedule._id, conversation_uuid: schedule.conversation_id, attempt: 1, lateness_ms: at.getTime() - schedule.schedule_at.getTime() }, 'scheduled message fired');
    }
  }

  private forgetOldDecisions(nowMs: number): void {
    for (const [id, since] of this.decidedElsewhereSince) if (nowMs - since > 10 * this.options.leaseMs) this.decidedElsewhereSince.delete(id);
  }

  /**
   * A schedule whose fate was claimed before: usually another replica fired it a moment ago and
   * mirrors it shortly, so nothing is read before a lease has passed since this replica first found
   * it decided. After that: a cancellation is mirrored, and a firing whose replica died before
   * producing is taken over (attempt n+1). True when this call produced the command.
   */
  private async fireDecidedElsewhere(schedule: StoredSchedule): Promise<boolean> {
    const { repository, clock } = this.dependencies;
    const id = schedule._id;
    const scope = businessScope(schedule.business_id);
    const now = clock.now();
    const since = this.decidedElsewhereSince.get(id);
    if (since === undefined) this.decidedElsewhereSince.set(id, now.getTime());
    if (since === undefined || now.getTime() - since < this.options.leaseMs) return false;

    const fate = await readClaim(scope, 'fate', id);
    if (fate?.data?.['decision'] === 'cancel') {
      await repository.recordCancelled(scope, id, null);
      return false;
    }
    if (fate && now.getTime() - fate.created_at.getTime() < this.options.leaseMs) return false;
    // Fired before, and the record still says pending: its replica died before recording the firing.
    const last = await this.lastAttempt(scope, id);
    if (last && now.getTime() - last.createdAt.getTime() < this.options.leaseMs) return false;
    const next = (last?.number ?? 0) + 1;
    if (!(await claimOnce(scope, 'fire', id, { replica: this.options.replicaId, takeover: true }, now, next))) return false;
    await this.produce(schedule, now);
    await this.recordFired(schedule, next, now);
    return true;
  }

  /** A schedule not holding its conversation: an unfinished create (cancelled once old enough). */
  private async settleUnheld(scope: BusinessScope, schedule: StoredSchedule, now: Date): Promise<void> {
    if (now.getTime() - schedule.created_at.getTime() < this.options.orphanGraceMs) return;
    if ((await cancelSchedule(this.dependencies.repository, scope, schedule, 'orphaned', SYSTEM_ACTOR, now)) === 'cancelled') {
      this.dependencies.logger.warn({ schedule_uuid: schedule._id, conversation_uuid: schedule.conversation_id }, "scheduled message: not its conversation's pending schedule; cancelled");
    }
  }

  /** A command produced long ago that never led to an outcome (e.g. dead-lettered): produced again, a few times at most. */
  private async refire(id: string): Promise<boolean> {
    const { repository, clock, logger } = this.dependencies;
    const schedule = await repository.findAny(id);
    if (!schedule || schedule.status !== 'firing') return false;
    const scope = businessScope(schedule.business_id);
    const now = clock.now();
    const claims = await claimsOfSchedule(scope, id);
    const outcome = claims.find((claim) => claim.kind === 'outcome')?.data as { status: string; error: { code: string; message: string } | null } | undefined;
    if (outcome) {
      // The executor finished; only the record's mirror of it was lost.
      await repository.recordOutcome(id, outcome, null);
      return false;
    }
    const next = Math.max(schedule.fire_attempts ?? 0, ...attemptsOf(claims).map((attempt) => attempt.number)) + 1;
    if (next > this.options.maxFireAttempts) {
      const error = { code: 'UPDATE_FAILED', message: `The scheduled message was handed to the actions-runner ${next - 1} times without an outcome.` };
      if (await claimOnce(scope, 'outcome', id, { status: 'failed', error, by: 'scheduler' }, now)) {
        await repository.recordOutcome(id, { status: 'failed', error }, scheduleHistoryEntry('failed', 'failed', now, { reason: 'never_executed', detail: error }));
        logger.error({ schedule_uuid: id }, 'scheduled message: never executed; failed');
      }
      return false;
    }
    if (!(await claimOnce(scope, 'fire', id, { replica: this.options.replicaId, stale: true }, now, next))) return false;
    logger.warn({ schedule_uuid: id, attempt: next }, 'scheduled message: produced again (no outcome in time)');
    await this.produce(schedule, now);
    await this.recordFired(schedule, next, now);
    return true;
  }

  private async produce(schedule: StoredSchedule, now: Date): Promise<void> {
    await this.dependencies.publisher.submit(schedule.conversation_id, this.commandOf(schedule, now));
  }

  /** Mirrors a takeover or a repeated firing on the record (attempt 1 is mirrored in batches). */
  private async recordFired(schedule: StoredSchedule, attempt: number, now: Date): Promise<void> {
    const { repository, clock, logger } = this.dependencies;
    const entry = schedule.status === 'pending' ? scheduleHistoryEntry('fired', 'firing', clock.now(), { detail: { replica: this.options.replicaId, attempt } }) : null;
    await repository.recordFired(schedule._id, { owner: this.options.replicaId, number: attempt, at: now, leaseUntil: new Date(now.getTime() + this.options.leaseMs) }, entry);
    logger.info({ schedule_uuid: schedule._id, conversation_uuid: schedule.conversation_id, attempt, lateness_ms: now.getTime() - schedule.schedule_at.getTime() }, 'scheduled message fired');
  }

  private async lastAttempt(scope: BusinessScope, id: string): Promise<FireAttempt | undefined> {
    return attemptsOf(await claimsOfSchedule(scope, id)).sort((a, b) => b.number - a.number)[0];
  }


  private commandOf(schedule: StoredSchedule, firedAt: Date): ScheduledMessageCommand {
    return createScheduledMessageCommand({
      schedule_uuid: schedule._id,
      business_id: schedule.business_id,
      conversation_uuid: schedule.conversation_id,
      token_uuid: schedule.created_by_token_id ?? '',
      executor_kind: schedule.executor_kind as ScheduledMessageCommand['executor_kind'],
      due_at: schedule.schedule_at.toISOString(),
      fired_at: firedAt.toISOString(),
      request_id: null,
    });
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      let full = false;
      this.running = this.pass()
        .then((result) => {
          full = result.full;
        })
        .catch((error: unknown) => this.dependencies.logger.warn({ err: error }, 'scheduled message poll failed'))
        .finally(() => {
          this.running = undefined;
          // A full batch: more are due right now.
          const again = this.wakeRequested || full;
          this.wakeRequested = false;
          this.schedule(again ? 0 : this.options.pollIntervalMs);
        });
    }, delayMs);
  }
}

/** The fate claim `fire` is attempt 1; `fire:<id>:<n>` claims are the takeovers. */
function attemptsOf(claims: readonly { _id: string; kind: string; data: Record<string, unknown> | null; created_at: Date }[]): FireAttempt[] {
  return claims
    .filter((claim) => claim.kind === 'fire' || (claim.kind === 'fate' && claim.data?.['decision'] === 'fire'))
    .map((claim) => ({ number: claim.kind === 'fate' ? 1 : Number(claim._id.split(':').pop()), createdAt: claim.created_at }));
}

function rotateFromRandomStart<Item>(items: Item[]): Item[] {
  const start = Math.floor(Math.random() * items.length);
  return [...items.slice(start), ...items.slice(0, start)];
}

async function forEachConcurrently<Item>(items: Item[], concurrency: number, run: (item: Item) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await run(item);
    }
  });
  await Promise.all(workers);
}
