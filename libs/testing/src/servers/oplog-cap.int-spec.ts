import { type ChangeStream, type Collection, MongoClient } from 'mongodb';
import { eventually } from '../eventually';
import { type MongoBackend, type ThrowawayMongoServer, startThrowawayMongoServer } from './throwaway-mongo-server';

const MAX_ENTRIES = 1000;

interface Row {
  i: number | 'after';
}

interface OplogEntry {
  op: string;
  ns: string;
  o: { i?: number };
}

/**
 * The local server keeps its oplog to its newest entries, as MongoDB does (tools/infra/mongo/
 * MongoLauncher.java, OplogCap): above CMSG_MONGO_OPLOG_MAX_ENTRIES the oldest go until half that
 * many are left, and change streams go on working.
 */
describe.each<MongoBackend>(['memory', 'h2'])('the local MongoDB (%s backend) oplog', (backend) => {
  let server: ThrowawayMongoServer;
  let client: MongoClient;
  let rows: Collection<Row>;
  let stream: ChangeStream<Row> | undefined;

  beforeAll(async () => {
    server = await startThrowawayMongoServer(backend, { oplogMaxEntries: MAX_ENTRIES });
    client = await MongoClient.connect(server.uri);
    rows = client.db('oplog_cap').collection<Row>('rows');
  }, 120_000);

  afterAll(async () => {
    await stream?.close();
    await client?.close();
    server?.stop();
  });

  const insert = async (from: number, count: number) => {
    for (let at = from; at < from + count; at += 100) {
      await rows.insertMany(Array.from({ length: Math.min(100, from + count - at) }, (_, k) => ({ i: at + k })));
    }
  };

  it('keeps its newest entries once it passes the cap (half the cap left by a trim), and change streams still see new changes', async () => {
    const oplog = client.db('local').collection<OplogEntry>('oplog.rs');
    const seen: Row['i'][] = [];
    let streaming = false;
    stream = rows.watch([], { fullDocument: 'updateLookup' });
    stream.on('change', (change) => {
      streaming = true;
      if (change.operationType === 'insert' && change.fullDocument.i !== -1) seen.push(change.fullDocument.i);
    });
    // The stream starts reading with its first poll: probe until it reports a change.
    await eventually(
      async () => {
        await rows.insertOne({ i: -1 });
        return streaming;
      },
      (started) => started,
    );
    // Under the cap nothing is trimmed: the stream sees every insert.
    await insert(0, 900);
    await eventually(async () => seen.length, (count) => count === 900);
    expect(seen).toEqual(Array.from({ length: 900 }, (_, i) => i));

    await insert(900, 2000);
    // A trim may come while the inserts run (the server checks every 2 s): it leaves half the cap,
    // and the inserts after it add to that.
    const kept = await eventually(() => oplog.countDocuments(), (count) => count <= MAX_ENTRIES, 30_000);
    expect(kept).toBeGreaterThanOrEqual(MAX_ENTRIES / 2);
    const keptInserts = await oplog
      .find({ ns: 'oplog_cap.rows', op: 'i' })
      .toArray()
      .then((entries) => entries.map((entry) => entry.o.i ?? Number.NaN).sort((a, b) => a - b));
    // What is left is the newest inserts, without a gap: a trim takes the oldest entries.
    expect(keptInserts.length).toBe(kept);
    expect(keptInserts).toEqual(Array.from({ length: kept }, (_, k) => 2900 - kept + k));

    await rows.insertOne({ i: 'after' });
    await eventually(async () => seen.at(-1), (last) => last === 'after');
  }, 90_000);
});
