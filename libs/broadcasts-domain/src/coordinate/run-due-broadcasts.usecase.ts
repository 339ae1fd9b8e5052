import { businessScopeOf } from '../core/scope';
import { COORDINATOR_TIMING, type CoordinatorPorts, coordinateBroadcast } from './coordinate-broadcast.usecase';

/**
 * One sweep of every replica's coordinator: each due broadcast is claimed (its lease) and given
 * its step; a broadcast another replica claimed first is left to it. Answers the steps run.
 */
export async function runDueBroadcasts(ports: CoordinatorPorts, options: { limit: number; concurrency: number }, timing = COORDINATOR_TIMING): Promise<number> {
  const due = await ports.store.broadcasts.findDueAcrossBusinesses(ports.clock.now(), options.limit);
  let next = 0;
  let ran = 0;
  const worker = async (): Promise<void> => {
    while (next < due.length) {
      const broadcast = due[next++]!;
      const claimed = await ports.store.broadcasts.claim(businessScopeOf(broadcast), broadcast, new Date(ports.clock.now().getTime() + timing.leaseMs));
      if (!claimed) continue;
      await coordinateBroadcast(ports, claimed, timing);
      ran += 1;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return ran;
}
