import { scheduleDueMinute } from '@cmsg/conversation-commands';

const MINUTE_MS = 60_000;
/** Minute buckets one pass polls after a long gap at most; older ones are left to the catch-up. */
export const MAX_POLLED_GAP_MINUTES = 10;

/**
 * The minute buckets (due_minute) a firing pass at `nowMs` polls: the backlog (past minutes that
 * still had pending schedules), and every minute from the last pass's (at least the previous one,
 * for a schedule due late in a minute that ended after the last pass) to now's.
 */
export function minutesToPoll(backlog: Iterable<string>, lastPolledAtMs: number, nowMs: number): string[] {
  const minutes = new Set(backlog);
  const from = Math.max(Math.min(lastPolledAtMs, nowMs - MINUTE_MS), nowMs - MAX_POLLED_GAP_MINUTES * MINUTE_MS);
  for (let at = from; at < nowMs + MINUTE_MS; at += MINUTE_MS) minutes.add(scheduleDueMinute(new Date(Math.min(at, nowMs))));
  return [...minutes].sort();
}
