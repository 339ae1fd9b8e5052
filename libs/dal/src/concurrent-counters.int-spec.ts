import { randomBytes, randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { businessScope } from './shared/business-scope';
import { BusinessModel, WalletLedgerModel } from './models';
import { chargeVisionWallet, visionWalletBalance } from './wallet-ledger/wallet-ledger';

/**
 * Counters that many callers move at the same moment, against the real FerretDB: a `$inc` there
 * loses concurrent updates (50 concurrent `$inc` of 1 left a counter at 1), so each is a log whose
 * next entry one writer wins.
 */
describe('concurrent counters on FerretDB', () => {
  const dbName = `dal_counters_it_${randomBytes(4).toString('hex')}`;

  const newBusiness = async (fields: Record<string, unknown> = {}) => {
    const id = randomUUID();
    await BusinessModel.create({ _id: id, slug: `b-${id}`, slug_lower: `b-${id}`, name: 'B', created_at: new Date(), ...fields });
    return businessScope(id);
  };

  beforeAll(async () => {
    await mongoose.connect(process.env['MONGODB_URI'] ?? 'mongodb://127.0.0.1:27117/', { dbName, serverSelectionTimeoutMS: 10_000 });
    await WalletLedgerModel.createIndexes();
  });

  // The database (unique to this run) is left in place: see libs/testing/src/global-teardown.ts.
  afterAll(async () => {
    await mongoose.disconnect();
  });

  it('charges a vision wallet exactly once per operation under concurrency', async () => {
    const scope = await newBusiness({ vision_wallet_funded_tokens: 1_000 });
    const operations = Array.from({ length: 20 }, () => randomUUID());
    await Promise.all([...operations, ...operations].map((operation) => chargeVisionWallet(scope, 10, operation)));
    expect(await visionWalletBalance(scope)).toBe(800);
  });

  it('accepts exactly the charges an open vision wallet has room for', async () => {
    const scope = await newBusiness({ vision_wallet_funded_tokens: 30 });
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => chargeVisionWallet(scope, 10, randomUUID())));
    expect(outcomes.filter((outcome) => outcome.result === 'charged')).toHaveLength(3);
    expect(outcomes.filter((outcome) => outcome.result === 'refused')).toHaveLength(7);
    expect(await visionWalletBalance(scope)).toBe(0);
  });
});
