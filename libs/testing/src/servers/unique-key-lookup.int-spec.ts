import { type Collection, type Document, type Filter, MongoClient } from 'mongodb';
import { type MongoBackend, type ThrowawayMongoServer, startThrowawayMongoServer } from './throwaway-mongo-server';

interface Row extends Document {
  _id: string;
  business_id: string;
  status: 'pending' | 'sent';
  key?: string;
  n: number;
}

const ROWS: Row[] = Array.from({ length: 60 }, (_, i) => ({
  _id: `row-${i}`,
  business_id: `business-${i % 3}`,
  status: i % 2 === 0 ? 'pending' : 'sent',
  ...(i % 4 === 0 ? { key: `key-${i}` } : {}),
  n: i,
}));

/**
 * Filters that pin every key of a unique index, with more conditions beside them: the local
 * server's launcher answers these from the index (tools/infra/mongo/MongoLauncher.java,
 * UniqueKeyLookup). `{$and: [filter]}` names no index key at the top level, so the server answers
 * it by scanning: both must answer the same documents.
 */
const PINNED_FILTERS: Filter<Row>[] = [
  { _id: 'row-4', status: 'pending' },
  { _id: 'row-4', status: 'sent' },
  { _id: 'row-5', business_id: 'business-2', status: 'sent' },
  { _id: 'row-5', business_id: 'business-0' },
  { business_id: 'business-1', _id: 'row-7', n: { $gte: 7 } },
  { _id: 'row-8', $or: [{ status: 'sent' }, { n: 8 }] },
  { _id: 'missing', status: 'pending' },
  { key: 'key-12', status: 'pending' },
  { key: 'key-12', business_id: 'business-1' },
  { key: 'key-13', n: 13 },
  { _id: 'row-9', key: { $exists: false } },
  // One key an $in of plain values: one lookup per value.
  { _id: { $in: ['row-4', 'row-5', 'row-7', 'missing'] }, business_id: 'business-1' },
  { business_id: 'business-1', _id: { $in: ['row-1', 'row-4', 'row-7', 'row-10', 'row-7'] } },
  { _id: { $in: ['row-4', 'row-7', 'row-8'] }, status: 'pending' },
  { _id: { $in: [] }, business_id: 'business-0' },
  { key: { $in: ['key-12', 'key-16', 'key-13'] }, n: { $gt: 12 } },
  // Not served by the lookup (an $in of a non-plain value, two $in keys): the answers must still be a scan's.
  { _id: { $in: ['row-4', null as unknown as string] }, business_id: 'business-1' },
  { _id: { $in: ['row-4', 'row-5'] }, business_id: { $in: ['business-1', 'business-2'] } },
];

describe.each<MongoBackend>(['memory', 'h2'])('the local MongoDB (%s backend) answering a filter that pins a unique index', (backend) => {
  let server: ThrowawayMongoServer;
  let client: MongoClient;
  let rows: Collection<Row>;

  beforeAll(async () => {
    server = await startThrowawayMongoServer(backend);
    client = await MongoClient.connect(server.uri);
    rows = client.db('unique_key_lookup').collection<Row>('rows');
    await rows.createIndex({ business_id: 1, _id: 1 }, { unique: true });
    await rows.createIndex({ key: 1 }, { unique: true, sparse: true });
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    server?.stop();
  });

  beforeEach(async () => {
    await rows.deleteMany({});
    await rows.insertMany(ROWS);
  });

  it.each(PINNED_FILTERS.map((filter) => [JSON.stringify(filter), filter] as const))('finds what a scan finds: %s', async (_, filter) => {
    const scanned = await rows.find({ $and: [filter] }).sort({ _id: 1 }).toArray();
    expect(await rows.find(filter).sort({ _id: 1 }).toArray()).toEqual(scanned);
  });

  it('updates and deletes only the documents that match the whole filter', async () => {
    expect((await rows.updateOne({ _id: 'row-3', status: 'pending' }, { $inc: { n: 100 } })).matchedCount).toBe(0);
    expect((await rows.updateOne({ _id: 'row-2', status: 'pending' }, { $inc: { n: 100 } })).modifiedCount).toBe(1);
    expect(await rows.findOneAndUpdate({ _id: 'row-2', business_id: 'business-0', status: 'sent' }, { $set: { status: 'pending' } })).toBeNull();
    expect((await rows.deleteOne({ key: 'key-16', status: 'sent' })).deletedCount).toBe(0);
    expect((await rows.deleteOne({ key: 'key-16', status: 'pending' })).deletedCount).toBe(1);
    expect((await rows.updateMany({ _id: { $in: ['row-20', 'row-21', 'row-22', 'row-23'] }, business_id: 'business-2' }, { $inc: { n: 1000 } })).modifiedCount).toBe(2);
    expect((await rows.updateMany({ _id: { $in: ['row-24', 'row-25'] }, status: 'sent' }, { $inc: { n: 1000 } })).modifiedCount).toBe(1);

    const byId = new Map((await rows.find({}).toArray()).map((row) => [row._id, row]));
    expect([20, 21, 22, 23, 24, 25].map((i) => byId.get(`row-${i}`)?.n)).toEqual([1020, 21, 22, 1023, 24, 1025]);
    expect(byId.get('row-2')?.n).toBe(102);
    expect(byId.get('row-3')?.n).toBe(3);
    expect(byId.has('row-16')).toBe(false);
    expect(byId.size).toBe(59);
  });

  it('gives a contended conditional claim of one document to exactly one of 50 writers', async () => {
    const claims = await Promise.all(
      Array.from({ length: 50 }, (_, writer) =>
        rows.findOneAndUpdate({ _id: 'row-10', business_id: 'business-1', status: 'pending' }, { $set: { status: 'sent', n: 1000 + writer } }, { projection: { n: 1 }, returnDocument: 'after' }),
      ),
    );
    const winners = claims.filter((claim) => claim !== null);
    expect(winners).toHaveLength(1);
    expect((await rows.findOne({ _id: 'row-10' }))?.n).toBe(winners[0]?.['n']);
  });
});
