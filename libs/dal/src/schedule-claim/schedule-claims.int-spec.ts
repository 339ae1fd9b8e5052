import { randomBytes, randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { businessScope } from '../shared/business-scope';
import { ScheduleClaimModel } from '../models';
import { claimMany, claimOnce } from './schedule-coordination';

/** Claims decided by inserts, on the real server: every claim has exactly one winner, batched or not. */
describe('schedule claims in bulk', () => {
  const dbName = `dal_claims_it_${randomBytes(4).toString('hex')}`;
  const scope = businessScope(randomUUID());

  beforeAll(async () => {
    await mongoose.connect(process.env['MONGODB_URI'] ?? 'mongodb://127.0.0.1:27117/', { dbName, serverSelectionTimeoutMS: 10_000 });
    await ScheduleClaimModel.createIndexes();
  });

  // The database (unique to this run) is left in place: see libs/testing/src/global-teardown.ts.
  afterAll(async () => {
    await mongoose.disconnect();
  });

  it('gives each schedule to one of four overlapping batches claiming at once', async () => {
    const ids = Array.from({ length: 200 }, () => randomUUID());
    // Each batch takes 150 of the 200, starting at a different place: every id is in three batches.
    const batches = [0, 50, 100, 150].map((offset) => Array.from({ length: 150 }, (_, index) => ids[(offset + index) % ids.length]!));
    const now = new Date();

    const won = await Promise.all(batches.map((batch, replica) => claimMany('fate', batch.map((scheduleId) => ({ scope, scheduleId, data: { replica } })), now)));

    const winners = won.flatMap((set) => [...set]);
    expect(winners).toHaveLength(ids.length);
    expect(new Set(winners)).toEqual(new Set(ids));
    for (const [replica, set] of won.entries()) for (const id of set) expect(batches[replica]).toContain(id);
    const stored = await ScheduleClaimModel.find({ business_id: scope.businessId, kind: 'fate' }).lean<{ schedule_id: string; data: { replica: number } }[]>();
    expect(stored).toHaveLength(ids.length);
    for (const claim of stored) expect(won[claim.data.replica]!.has(claim.schedule_id)).toBe(true);
  });

  it('does not win what a single claim took before, and wins the rest', async () => {
    const [taken, free] = [randomUUID(), randomUUID()];
    expect(await claimOnce(scope, 'fate', taken, { decision: 'cancel' }, new Date())).toBe(true);

    const won = await claimMany('fate', [taken, free].map((scheduleId) => ({ scope, scheduleId, data: { decision: 'fire' } })), new Date());

    expect([...won]).toEqual([free]);
    expect(await claimOnce(scope, 'fate', free, { decision: 'cancel' }, new Date())).toBe(false);
    expect(await claimMany('fate', [], new Date())).toEqual(new Set());
  });
});
