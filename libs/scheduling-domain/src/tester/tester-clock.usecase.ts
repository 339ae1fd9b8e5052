import { CatalogError } from '@cmsg/errors';
import type { BusinessScope } from '@cmsg/dal';
import type { TesterClock } from '@cmsg/proto';
import type { BusinessStore, Clock } from '../ports';

/** CONTRACT 3: the clock moves at most 366 days at once. */
export const MAX_TESTER_CLOCK_ADVANCE_SECONDS = 366 * 24 * 60 * 60;

export interface AdvanceTesterClockDependencies {
  businesses: Pick<BusinessStore, 'advanceTesterClock'>;
  clock: Clock;
}

/**
 * CONTRACT 6: moves the business's tester clock forward (one `$inc`: concurrent advances all add
 * up). Tester schedules that become due fire on the firer's next pass.
 */
export async function advanceTesterClock(scope: BusinessScope, advanceSeconds: number, dependencies: AdvanceTesterClockDependencies): Promise<TesterClock> {
  const realNow = dependencies.clock.now();
  if (!Number.isInteger(advanceSeconds) || advanceSeconds < 1 || advanceSeconds > MAX_TESTER_CLOCK_ADVANCE_SECONDS) {
    throw new CatalogError('INVALID_REQUEST', `Invalid request: advance_seconds: an integer from 1 to ${MAX_TESTER_CLOCK_ADVANCE_SECONDS}.`);
  }
  const offsetMs = await dependencies.businesses.advanceTesterClock(scope, advanceSeconds * 1000);
  if (offsetMs === null) throw new CatalogError('FETCH_FAILED', 'The business of this caller no longer exists.');
  return { tester_virtual_now: new Date(realNow.getTime() + offsetMs).toISOString() };
}
