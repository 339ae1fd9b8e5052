import type { DueSchedule, FireClaim, ScheduledMessageRepository } from '@cmsg/dal';

type FiringStore = Pick<ScheduledMessageRepository, 'dueInAnyBusiness' | 'claimPendingInAnyBusiness' | 'takeOverExpiredInAnyBusiness' | 'claimedInAnyBusiness' | 'markProducedInAnyBusiness'>;

/**
 * The firer's side of ScheduledMessageRepository over a map: a schedule is claimed once, from
 * pending; an unproduced firing counts as lease-expired for a takeover. The due query answers the
 * pending schedules due by `now` (tester ones whatever their time, as the real one does), in time
 * order; lease expiry is not modelled there.
 */
export class InMemorySchedules implements FiringStore {
  readonly state = new Map<string, { status: string; claim: string | null; produced: boolean; producedAt?: Date }>();
  readonly due = new Map<string, DueSchedule>();
  claimReads = 0;
  dueReads: Date[] = [];
  /** Every claim and mark in order, to check the phases. */
  readonly calls: string[] = [];

  constructor(ids: string[] = []) {
    for (const id of ids) this.state.set(id, { status: 'pending', claim: null, produced: false });
  }

  add(schedule: DueSchedule): void {
    this.due.set(schedule._id, schedule);
    this.state.set(schedule._id, { status: 'pending', claim: null, produced: false });
  }

  async dueInAnyBusiness(now: Date, limit: number): Promise<DueSchedule[]> {
    this.dueReads.push(now);
    return [...this.due.values()]
      .filter((schedule) => this.state.get(schedule._id)?.status === 'pending' && (schedule.is_tester || schedule.schedule_at <= now))
      .sort((a, b) => a.schedule_at.getTime() - b.schedule_at.getTime())
      .slice(0, limit)
      .map((schedule) => ({ ...schedule, status: 'pending' }));
  }
  async claimPendingInAnyBusiness(ids: readonly string[], claim: FireClaim): Promise<number> {
    this.calls.push(`claim ${ids.length}`);
    const claimable = ids.filter((id) => this.state.get(id)?.status === 'pending');
    for (const id of claimable) this.state.set(id, { status: 'firing', claim: claim.claim, produced: false });
    return claimable.length;
  }
  async takeOverExpiredInAnyBusiness(ids: readonly string[], _now: Date, claim: FireClaim): Promise<number> {
    const expired = ids.filter((id) => this.state.get(id)?.status === 'firing' && !this.state.get(id)!.produced);
    for (const id of expired) this.state.get(id)!.claim = claim.claim;
    return expired.length;
  }
  async claimedInAnyBusiness(ids: readonly string[], claim: string): Promise<Set<string>> {
    this.claimReads += 1;
    return new Set(ids.filter((id) => this.state.get(id)?.claim === claim));
  }
  async markProducedInAnyBusiness(ids: readonly string[], at: Date): Promise<void> {
    this.calls.push(`mark ${ids.length}`);
    for (const id of ids) Object.assign(this.state.get(id)!, { produced: true, producedAt: at });
  }
}
