import { type BroadcastEntity, type RecentScopedRead, recentScopedReads } from '@cmsg/dal';
import type { BroadcastClock, BroadcastStore } from './broadcast-ports';

/** How old a broadcast's state may be when a sender acts on it: a pause stops sends within this. */
const STATE_MAX_AGE_MS = 250;

/** A broadcast's state, read at most every STATE_MAX_AGE_MS in this process. */
export type BroadcastStates = RecentScopedRead<BroadcastEntity | null>;

/** The shared reads of the broadcasts' states that a process's senders act on, built once per process. */
export function recentBroadcastStates(store: Pick<BroadcastStore, 'broadcasts'>, clock: BroadcastClock): BroadcastStates {
  return recentScopedReads((scope, id) => store.broadcasts.findById(scope, id), { maxAgeMs: STATE_MAX_AGE_MS, now: () => clock.now().getTime() });
}
