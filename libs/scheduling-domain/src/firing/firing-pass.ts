import type { BusinessRepository, ScheduledMessageRepository } from '@cmsg/dal';
import { type DueWork, type FiringStepDependencies, type FiringStepOptions, fireDueSchedules } from './fire-due-schedules';
import { dueTesterSchedules } from './tester-due';

export interface FiringPassOptions extends FiringStepOptions {
  /** Due schedules one pass takes at most; a full batch is followed by another pass at once. */
  batchSize: number;
}

export const DEFAULT_FIRING_OPTIONS: Omit<FiringPassOptions, 'replicaId'> = { leaseMs: 30_000, chunkSize: 500, batchSize: 10_000 };

export interface FiringPassDependencies extends FiringStepDependencies {
  repository: FiringStepDependencies['repository'] & Pick<ScheduledMessageRepository, 'dueInAnyBusiness'>;
  businesses: Pick<BusinessRepository, 'testerClockOffsetsInAnyBusiness'>;
}

/**
 * One pass of the firer: finds what is due in every business (the repository's due-schedule query;
 * tester schedules on their business's virtual clock) and fires it. Any number of replicas run
 * passes at the same time; each schedule is claimed by one of them.
 */
export class FiringPass {
  private readonly options: FiringPassOptions;

  constructor(
    private readonly dependencies: FiringPassDependencies,
    options: Partial<FiringPassOptions> & { replicaId: string },
  ) {
    this.options = { ...DEFAULT_FIRING_OPTIONS, ...options };
  }

  async run(): Promise<{ fired: number; full: boolean }> {
    const { repository, businesses, clock } = this.dependencies;
    const now = clock.now();
    const found = await repository.dueInAnyBusiness(now, this.options.batchSize);
    const pendingTester = found.filter((schedule) => schedule.status === 'pending' && schedule.is_tester);
    const testerDue = pendingTester.length > 0 ? dueTesterSchedules(pendingTester, await businesses.testerClockOffsetsInAnyBusiness(pendingTester.map((schedule) => schedule.business_id)), now) : [];
    const realTimeDue = found.filter((schedule) => schedule.status === 'pending' && !schedule.is_tester);
    const work: DueWork = { pending: [...realTimeDue, ...testerDue], leaseExpired: found.filter((schedule) => schedule.status === 'firing') };
    const fired = await fireDueSchedules(work, this.dependencies, this.options);
    // A full batch of due work: more may be due right now.
    return { fired, full: work.pending.length + work.leaseExpired.length >= this.options.batchSize };
  }
}
