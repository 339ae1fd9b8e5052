import type { DueSchedule } from '@cmsg/dal';

/**
 * Tester schedules are stored and fire in their business's virtual time: real now plus the
 * business's tester clock offset. Answers the ids due at `realNow`, earliest first.
 */
export function dueTesterScheduleIds(pending: readonly Pick<DueSchedule, '_id' | 'business_id' | 'schedule_at'>[], clockOffsets: ReadonlyMap<string, number>, realNow: Date): string[] {
  return pending
    .filter((schedule) => schedule.schedule_at.getTime() <= realNow.getTime() + (clockOffsets.get(schedule.business_id) ?? 0))
    .sort((a, b) => a.schedule_at.getTime() - b.schedule_at.getTime())
    .map((schedule) => schedule._id);
}
