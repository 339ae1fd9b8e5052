import type { DueSchedule } from '@cmsg/dal';

/**
 * Tester schedules are stored and fire in their business's virtual time: real now plus the
 * business's tester clock offset. Answers those due at `realNow`, earliest first.
 */
export function dueTesterSchedules<Schedule extends Pick<DueSchedule, 'business_id' | 'schedule_at'>>(
  pending: readonly Schedule[],
  clockOffsets: ReadonlyMap<string, number>,
  realNow: Date,
): Schedule[] {
  return pending
    .filter((schedule) => schedule.schedule_at.getTime() <= realNow.getTime() + (clockOffsets.get(schedule.business_id) ?? 0))
    .sort((a, b) => a.schedule_at.getTime() - b.schedule_at.getTime());
}
