import { CatalogError } from '@cmsg/errors';
import { BusinessRepository, type BusinessScope } from '@cmsg/dal';

const businesses = new BusinessRepository();

export interface BusinessTime {
  timeZone: string;
  testerClockOffsetMs: number;
}

export async function loadBusinessTime(scope: BusinessScope): Promise<BusinessTime> {
  const business = await businesses.findById(scope);
  if (!business) throw new CatalogError('FETCH_FAILED', 'The business of this caller no longer exists.');
  return { timeZone: business.time_zone || 'UTC', testerClockOffsetMs: business.tester_clock_offset_ms ?? 0 };
}
