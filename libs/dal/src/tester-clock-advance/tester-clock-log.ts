import { setTimeout as sleep } from 'node:timers/promises';
import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { BusinessModel, TesterClockAdvanceModel } from '../models';
import { isDuplicateKeyError } from '../shared/duplicate-key';

const MAX_ROUNDS = 200;

async function latestAdvance(scope: BusinessScope): Promise<{ seq: number; offset_ms: number } | null> {
  const [latest] = await TesterClockAdvanceModel.find(scopedFilter(scope, {}), { seq: 1, offset_ms: 1 }).sort({ seq: -1 }).limit(1).lean<{ seq: number; offset_ms: number }[]>();
  return latest ?? null;
}

/**
 * Moves the business's tester clock forward by advanceMs as the next entry of its advance log, so
 * concurrent advances all add up (see testerClockAdvanceSchema); the first advance starts from the
 * business's stored offset. Answers the new offset, or null for an unknown business.
 */
export async function advanceTesterClockOffset(scope: BusinessScope, advanceMs: number, now: Date): Promise<number | null> {
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const latest = await latestAdvance(scope);
    let base = latest?.offset_ms;
    if (base === undefined) {
      const business = await BusinessModel.findById(scope.businessId, { tester_clock_offset_ms: 1 }).lean<{ tester_clock_offset_ms?: number }>();
      if (!business) return null;
      base = business.tester_clock_offset_ms ?? 0;
    }
    const seq = (latest?.seq ?? 0) + 1;
    const offset = base + advanceMs;
    try {
      await TesterClockAdvanceModel.create({ _id: `${scope.businessId}:${seq}`, business_id: scope.businessId, seq, advance_ms: advanceMs, offset_ms: offset, created_at: now });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      await sleep(Math.floor(Math.random() * Math.min(20, round + 2)));
      continue;
    }
    await mirrorTesterClock(scope);
    return offset;
  }
  throw new Error(`tester clock of ${scope.businessId}: no advance won in ${MAX_ROUNDS} rounds`);
}

/** Writes the latest offset into business.tester_clock_offset_ms until the copy matches (writers finish in any order). */
async function mirrorTesterClock(scope: BusinessScope): Promise<void> {
  for (let round = 0; round < 4; round += 1) {
    const latest = await latestAdvance(scope);
    if (!latest) return;
    const business = await BusinessModel.findById(scope.businessId, { tester_clock_offset_ms: 1 }).lean<{ tester_clock_offset_ms?: number }>();
    if (!business || business.tester_clock_offset_ms === latest.offset_ms) return;
    await BusinessModel.updateOne({ _id: scope.businessId }, { $set: { tester_clock_offset_ms: latest.offset_ms } });
  }
}
