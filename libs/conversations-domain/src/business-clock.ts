import { CatalogError } from '@cmsg/errors';
import { BusinessModel, type BusinessScope } from '@cmsg/dal';

export interface BusinessClock {
  timeZone: string;
  testerClockOffsetMs: number;
}

export async function loadBusinessClock(scope: BusinessScope): Promise<BusinessClock> {
  const { clock } = await loadBusinessClockAndVisionFunds(scope);
  return clock;
}

/** The clock and the vision wallet's funded tokens in one read (the conversation context needs both). */
export async function loadBusinessClockAndVisionFunds(scope: BusinessScope): Promise<{ clock: BusinessClock; visionWalletFundedTokens: number }> {
  const business = await BusinessModel.findById(scope.businessId, { time_zone: 1, tester_clock_offset_ms: 1, vision_wallet_funded_tokens: 1 }).lean<{
    time_zone: string;
    tester_clock_offset_ms?: number;
    vision_wallet_funded_tokens?: number;
  }>();
  if (!business) throw new CatalogError('FETCH_FAILED', 'The business of this token no longer exists.');
  return {
    clock: { timeZone: business.time_zone, testerClockOffsetMs: business.tester_clock_offset_ms ?? 0 },
    visionWalletFundedTokens: business.vision_wallet_funded_tokens ?? 0,
  };
}
