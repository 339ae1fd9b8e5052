import { CatalogError } from '@cmsg/errors';
import { BusinessModel, type BusinessScope } from '@cmsg/dal';

export interface BusinessTime {
  timeZone: string;
  testerClockOffsetMs: number;
}

export async function loadBusinessTime(scope: BusinessScope): Promise<BusinessTime> {
  const business = await BusinessModel.findById(scope.businessId, { time_zone: 1, tester_clock_offset_ms: 1 }).lean<{ time_zone?: string; tester_clock_offset_ms?: number }>();
  if (!business) throw new CatalogError('FETCH_FAILED', 'The business of this caller no longer exists.');
  return { timeZone: business.time_zone || 'UTC', testerClockOffsetMs: business.tester_clock_offset_ms ?? 0 };
}
