import type { BusinessRepository, DueSchedule, ScheduledMessageRepository } from '@cmsg/dal';
import { type DueWork, type FiringStepDependencies, type FiringStepOptions, fireDueSchedules } from './fire-due-schedules';
import { dueTesterSchedules } from './tester-due';

export interface FiringPassOptions extends FiringStepOptions {
  /** Due schedules one pass takes at most; a full batch is followed by another pass at once. */
  batchSize: number;
  /** Schedules fall due on whole multiples of this (whole minutes). */
  dueEveryMs: number;
  /**
   * This long before each multiple of dueEveryMs, a pass also reads what will be due at it, so the
   * pass at the multiple starts claiming at once instead of reading first (0: never).
   */
  readAheadMs: number;
}

export const DEFAULT_FIRING_OPTIONS: Omit<FiringPassOptions, 'replicaId'> = { leaseMs: 30_000, chunkSize: 500, batchSize: 10_000, dueEveryMs: 60_000, readAheadMs: 3_000 };

export interface FiringPassDependencies extends FiringStepDependencies {
  repository: FiringStepDependencies['repository'] & Pick<ScheduledMessageRepository, 'dueInAnyBusiness'>;
  businesses: Pick<BusinessRepository, 'testerClockOffsetsInAnyBusiness'>;
}

/**
 * One pass of the firer: finds what is due in every business (the repository's due-schedule query;
 * tester schedules on their business's virtual clock) and fires it. Any number of replicas run
 * passes at the same time; each schedule is claimed by one of them.
 *
 * What is due at the start of a minute was read a few seconds before it (readAheadMs): the read is a
 * snapshot, and the claims decide. A schedule cancelled or fired elsewhere since is no longer
 * pending and is not claimed; one created since is found by the pass that follows at once.
 */
export class FiringPass {
  private readonly options: FiringPassOptions;
  private readAhead: { dueAt: number; found: DueSchedule[] } | undefined;

  constructor(
    private readonly dependencies: FiringPassDependencies,
    options: Partial<FiringPassOptions> & { replicaId: string },
  ) {
    this.options = { ...DEFAULT_FIRING_OPTIONS, ...options };
  }

  async run(): Promise<{ fired: number; full: boolean }> {
    const { repository, businesses, clock } = this.dependencies;
    const now = clock.now();
    const readAhead = this.readAhead && this.readAhead.dueAt <= now.getTime() ? this.readAhead : undefined;
    if (readAhead) this.readAhead = undefined;
    const found = readAhead?.found ?? (await repository.dueInAnyBusiness(now, this.options.batchSize));
    const pendingTester = found.filter((schedule) => schedule.status === 'pending' && schedule.is_tester);
    const testerDue = pendingTester.length > 0 ? dueTesterSchedules(pendingTester, await businesses.testerClockOffsetsInAnyBusiness(pendingTester.map((schedule) => schedule.business_id)), now) : [];
    const realTimeDue = found.filter((schedule) => schedule.status === 'pending' && !schedule.is_tester);
    const work: DueWork = { pending: [...realTimeDue, ...testerDue], leaseExpired: found.filter((schedule) => schedule.status === 'firing') };
    const fired = await fireDueSchedules(work, this.dependencies, this.options);
    await this.readAheadOfNextMinute();
    // A full batch of due work, or work read ahead: more may be due right now.
    return { fired, full: readAhead !== undefined || work.pending.length + work.leaseExpired.length >= this.options.batchSize };
  }

  private async readAheadOfNextMinute(): Promise<void> {
    const { dueEveryMs, readAheadMs, batchSize } = this.options;
    const now = this.dependencies.clock.now().getTime();
    const next = Math.ceil(now / dueEveryMs) * dueEveryMs;
    if (readAheadMs <= 0 || next - now > readAheadMs || this.readAhead?.dueAt === next) return;
    this.readAhead = { dueAt: next, found: await this.dependencies.repository.dueInAnyBusiness(new Date(next), batchSize) };
  }
}
