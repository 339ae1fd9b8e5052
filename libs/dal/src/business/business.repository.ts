import type { BusinessScope } from '../shared/business-scope';
import { BusinessModel } from './business.schema';

/** A business document is its own tenant: its filters are on `_id`. */
export class BusinessRepository {
  /** Its time zone and tester clock offset, or null for an unknown business. */
  async timeSettings(scope: BusinessScope): Promise<{ timeZone: string; testerClockOffsetMs: number } | null> {
    const business = await BusinessModel.findOne({ _id: scope.businessId }, { time_zone: 1, tester_clock_offset_ms: 1 }).lean<{ time_zone?: string; tester_clock_offset_ms?: number }>();
    return business ? { timeZone: business.time_zone || 'UTC', testerClockOffsetMs: business.tester_clock_offset_ms ?? 0 } : null;
  }

  /** Moves the tester clock forward (`$inc`); answers the new offset, or null for an unknown business. */
  async advanceTesterClock(scope: BusinessScope, advanceMs: number): Promise<number | null> {
    const business = await BusinessModel.findOneAndUpdate({ _id: scope.businessId }, { $inc: { tester_clock_offset_ms: advanceMs } }, { returnDocument: 'after', projection: { tester_clock_offset_ms: 1 } }).lean<{
      tester_clock_offset_ms: number;
    }>();
    return business?.tester_clock_offset_ms ?? null;
  }

  /** The tester clock offsets of several businesses at once (the scheduler's firer spans businesses). */
  async testerClockOffsetsInAnyBusiness(businessIds: readonly string[]): Promise<Map<string, number>> {
    const businesses = await BusinessModel.find({ _id: { $in: [...new Set(businessIds)] } }, { tester_clock_offset_ms: 1 }).lean<{ _id: string; tester_clock_offset_ms?: number }[]>();
    return new Map(businesses.map((business) => [business._id, business.tester_clock_offset_ms ?? 0]));
  }
}
