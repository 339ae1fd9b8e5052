import { randomBytes } from 'node:crypto';
import mongoose from 'mongoose';
import { ContactModel, ConversationModel, ScheduledMessageModel } from './models';

/**
 * The indexes the models declare serve their equality lookups on the server we run, not only on
 * MongoDB: FerretDB pushes `{field: value}` down to PostgreSQL as `_jsonb->'field' @> value`, which
 * its own btree indexes cannot serve; tools/infra gives every declared field a GIN index on that
 * very expression (tools/infra/lib/ferretdb-gin-companions.sql). Without it each lookup below is a
 * sequential scan of the collection.
 */
describe('declared indexes serve equality lookups', () => {
  const dbName = `dal_indexes_it_${randomBytes(4).toString('hex')}`;
  const ROWS = 3000;

  beforeAll(async () => {
    await mongoose.connect(process.env['MONGODB_URI'] ?? 'mongodb://127.0.0.1:27117/', { dbName, serverSelectionTimeoutMS: 10_000 });
    await Promise.all([ConversationModel.createIndexes(), ContactModel.createIndexes(), ScheduledMessageModel.createIndexes()]);
    const rows = Array.from({ length: ROWS }, (_, index) => index);
    await ConversationModel.collection.insertMany(rows.map((index) => ({ _id: `conversation-${index}`, business_id: `business-${index % 10}`, contact_id: `contact-${index}` }) as never));
    await ContactModel.collection.insertMany(rows.map((index) => ({ _id: `contact-${index}`, business_id: `business-${index % 10}`, phone_key: `52155${index}` }) as never));
    await ScheduledMessageModel.collection.insertMany(
      rows.map((index) => ({ _id: `schedule-${index}`, business_id: 'business-0', status: index % 3 === 0 ? 'pending' : 'sent', due_minute: `2026-01-01T00:${String(index % 60).padStart(2, '0')}` }) as never),
    );
  });

  // The database (unique to this run) is left in place: see libs/testing/src/global-teardown.ts.
  afterAll(async () => {
    await mongoose.disconnect();
  });

  const lookups: [string, () => { explain(): Promise<unknown>; countDocuments(): Promise<number> }][] = [
    ['by _id', () => ConversationModel.find({ _id: 'conversation-1234' })],
    ['by the second field of a unique compound index', () => ConversationModel.find({ contact_id: 'contact-77' })],
    ['by business and normalised phone', () => ContactModel.find({ business_id: 'business-3', phone_key: '5215513' })],
    ['by minute bucket and status', () => ScheduledMessageModel.find({ due_minute: '2026-01-01T00:09', status: 'pending' })],
  ];

  it.each(lookups)('%s', async (_name, lookup) => {
    const plan = JSON.stringify(await lookup().explain());
    expect(plan).toMatch(/"Node Type":"(Bitmap Index Scan|Index Scan|Index Only Scan)"|"stage":"(IXSCAN|IDHACK|EXPRESS_IXSCAN)"/);
    expect(plan).not.toMatch(/"Node Type":"Seq Scan"|"stage":"COLLSCAN"/);
    expect(await lookup().countDocuments()).toBeGreaterThan(0);
  });
});
