import { CatalogError } from '@cmsg/errors';
import type { BusinessEntity, BusinessScope } from '@cmsg/dal';

/** The caller's business (BusinessRepository in the app). */
export interface BusinessDirectory {
  findById(scope: BusinessScope): Promise<BusinessEntity | null>;
}

export interface BusinessClock {
  timeZone: string;
  testerClockOffsetMs: number;
}

export async function loadBusinessClock(businesses: BusinessDirectory, scope: BusinessScope): Promise<BusinessClock> {
  return clockOf(await loadBusiness(businesses, scope));
}

/** The offset of the clock a conversation lives on: only a tester conversation lives on the business's virtual clock, so no other reads the business. */
export async function conversationClockOffsetMs(businesses: BusinessDirectory, scope: BusinessScope, isTester: boolean): Promise<number> {
  return isTester ? (await loadBusinessClock(businesses, scope)).testerClockOffsetMs : 0;
}

/** The business of the caller (the conversation context needs its clock and its vision wallet in one read). */
export async function loadBusiness(businesses: BusinessDirectory, scope: BusinessScope): Promise<BusinessEntity> {
  const business = await businesses.findById(scope);
  if (!business) throw new CatalogError('FETCH_FAILED', 'The business of this token no longer exists.');
  return business;
}

export function clockOf(business: Pick<BusinessEntity, 'time_zone' | 'tester_clock_offset_ms'>): BusinessClock {
  return { timeZone: business.time_zone, testerClockOffsetMs: business.tester_clock_offset_ms ?? 0 };
}
