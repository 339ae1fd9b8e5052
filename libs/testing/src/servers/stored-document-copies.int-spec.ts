import { type Collection, type Document, MongoClient } from 'mongodb';
import { type MongoBackend, type ThrowawayMongoServer, startThrowawayMongoServer } from './throwaway-mongo-server';

const FIELDS = Array.from({ length: 30 }, (_, k) => `f${k}`);
const WRITERS = 16;
const READERS = 16;
const RUN_MS = 5000;

/** `{_id, business_id}` and the 30 counters `f0`..`f29` (the driver's update types refuse a typed index signature beside `_id`). */
interface Counters extends Document {
  _id: string;
}

/** A document whose 30 counters differ was read between the fields of one update. */
const isTorn = (document: Counters | null) => document !== null && FIELDS.some((field) => document[field] !== document['f0']);

/**
 * The local server answers copies of what it stores (tools/infra/mongo/MongoLauncher.java,
 * Snapshots): mongo-java-server updates a stored document in place and encoded the stored
 * document itself after releasing the collection's lock, so an answer could show an update half
 * applied. And the H2 backend, whose collections the launcher opens itself, keeps documents and
 * indexes across a restart (what `npm start` relies on).
 */
describe.each<MongoBackend>(['memory', 'h2'])('the local MongoDB (%s backend)', (backend) => {
  let server: ThrowawayMongoServer;
  let client: MongoClient;
  let counters: Collection<Counters>;

  beforeAll(async () => {
    server = await startThrowawayMongoServer(backend);
    client = await MongoClient.connect(server.uri, { maxPoolSize: WRITERS + READERS });
    counters = client.db('stored_document_copies').collection<Counters>('counters');
    await counters.createIndex({ business_id: 1, _id: 1 }, { unique: true });
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    server?.stop();
  });

  it(`answers every read and findOneAndUpdate from one state of the document (${WRITERS} writers, ${READERS} readers)`, async () => {
    await counters.insertOne({ _id: 'one', business_id: 'b', ...Object.fromEntries(FIELDS.map((field) => [field, 0])) });
    const increment = Object.fromEntries(FIELDS.map((field) => [field, 1]));
    const until = Date.now() + RUN_MS;
    const answers = { writes: 0, tornWrites: 0, reads: 0, tornReads: 0 };
    const writers = Array.from({ length: WRITERS }, async () => {
      while (Date.now() < until) {
        const after = await counters.findOneAndUpdate({ _id: 'one', business_id: 'b' }, { $inc: increment }, { returnDocument: 'after' });
        answers.writes += 1;
        if (isTorn(after)) answers.tornWrites += 1;
      }
    });
    const readers = Array.from({ length: READERS }, async () => {
      while (Date.now() < until) {
        const read = await counters.findOne({ _id: 'one', business_id: 'b' });
        answers.reads += 1;
        if (isTorn(read)) answers.tornReads += 1;
      }
    });
    await Promise.all([...writers, ...readers]);

    expect(answers.writes).toBeGreaterThan(100);
    expect(answers.reads).toBeGreaterThan(100);
    expect({ tornWrites: answers.tornWrites, tornReads: answers.tornReads }).toEqual({ tornWrites: 0, tornReads: 0 });
    const final = await counters.findOne({ _id: 'one' });
    expect(FIELDS.map((field) => final?.[field])).toEqual(FIELDS.map(() => answers.writes));
  }, 60_000);

  if (backend === 'h2') {
    it('keeps documents and unique indexes across a restart', async () => {
      await counters.insertOne({ _id: 'kept', business_id: 'b', note: 'survives' });
      await client.close();
      server.restart();
      client = await MongoClient.connect(server.uri);
      counters = client.db('stored_document_copies').collection<Counters>('counters');

      expect(await counters.findOne({ _id: 'kept', business_id: 'b' })).toEqual({ _id: 'kept', business_id: 'b', note: 'survives' });
      await expect(counters.insertOne({ _id: 'kept', business_id: 'b' })).rejects.toMatchObject({ code: 11000 });
      expect((await counters.indexes()).map((index) => index.key)).toContainEqual({ business_id: 1, _id: 1 });
    }, 120_000);
  }
});
