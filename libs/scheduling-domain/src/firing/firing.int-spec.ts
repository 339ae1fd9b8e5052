import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { CommandStreamProducer, ensureTopics } from '@cmsg/command-stream';
import { type ScheduledMessageCommand, scheduleHistoryEntry } from '@cmsg/conversation-commands';
import { BusinessRepository, ScheduledMessageRepository, businessScope, ensureIndexes } from '@cmsg/dal';
import { createLogger } from '@cmsg/platform';
import { createKafka } from '@cmsg/platform/kafka';
import { connectToOwnDatabase, dropConnectedDatabase, storedCollection } from '@cmsg/testing-database';
import { Partitioners, type Producer } from 'kafkajs';
import { cancelScheduledMessage } from '../manage/cancel-scheduled-message.usecase';
import type { ConversationCommandPublisher } from '../ports';
import { FiringPass } from './firing-pass';

const logger = createLogger('firing-int-spec', process.env['LOG_LEVEL'] ?? 'silent');
const LEASE_MS = 30_000;

/** The real command topic behind the port; it records what Kafka accepted and can refuse the next batch. */
class RecordingPublisher implements ConversationCommandPublisher {
  readonly produced: string[] = [];
  failNextBatch = false;

  constructor(private readonly stream: CommandStreamProducer<ScheduledMessageCommand>) {}

  async submit(conversationId: string, command: ScheduledMessageCommand): Promise<void> {
    await this.submitMany([{ conversationId, command }]);
  }

  async submitMany(entries: readonly { conversationId: string; command: ScheduledMessageCommand }[]): Promise<void> {
    if (this.failNextBatch) {
      this.failNextBatch = false;
      throw new Error('broker unavailable');
    }
    await this.stream.submitMany(entries);
    this.produced.push(...entries.map((entry) => entry.command.schedule_uuid));
  }
}

/** How often each id occurs in `produced`. */
function countsOf(produced: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const id of produced) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

function report(test: string, figures: { writers: number; lost: number; twice: number }): void {
  console.log(`[contention] ${test}: writers ${figures.writers}, lost ${figures.lost}, twice ${figures.twice}`);
}

/** The local Kafka the integration suite runs on (tools/infra), or KAFKA_BROKERS. */
const KAFKA_BROKERS = process.env['KAFKA_BROKERS'] ?? '127.0.0.1:19092';

/** Firing against the real MongoDB (a database of its own, dropped after) and Kafka, with a clock the test moves. */
describe('firing scheduled messages (real MongoDB and Kafka)', () => {
  const kafka = createKafka(`firing-int-${process.pid}`, KAFKA_BROKERS.split(','), logger);
  const topic = `test-${randomUUID().slice(0, 8)}-conversation-commands`;
  const repository = new ScheduledMessageRepository();
  const businesses = new BusinessRepository();
  let producer: Producer;
  let stream: CommandStreamProducer<ScheduledMessageCommand>;
  let now: Date;
  const clock = { now: () => now };

  beforeAll(async () => {
    await connectToOwnDatabase('firing_it');
    await ensureIndexes();
    await ensureTopics(kafka, [topic], { partitions: 3 });
    producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    stream = new CommandStreamProducer({ producer, topic });
  });

  afterAll(async () => {
    await producer.disconnect();
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
    await dropConnectedDatabase();
  });

  /** `count` pending schedules of a new business due at `dueAt`, each its conversation's pending one. */
  async function pendingSchedules(count: number, dueAt: Date, fields: { is_tester?: boolean } = {}): Promise<{ businessId: string; ids: string[] }> {
    const businessId = randomUUID();
    const scope = businessScope(businessId);
    const author = { type: 'api_token', uuid: randomUUID() };
    const createdAt = new Date(dueAt.getTime() - 3_600_000);
    const ids = Array.from({ length: count }, () => randomUUID());
    for (let start = 0; start < count; start += 50) {
      await Promise.all(
        ids.slice(start, start + 50).map(async (id) => {
          const stored = await repository.insertPending(scope, {
            _id: id,
            conversation_id: randomUUID(),
            status: 'pending',
            executor_kind: 'human_user',
            ai_employee_id: null,
            reason: null,
            template_id: randomUUID(),
            message_kind: 'message',
            payload: { kind: 'message', text: 'hello' },
            template_variables: [],
            template_header: null,
            template_button_parameters: [],
            schedule_at: dueAt,
            schedule_local: null,
            cancel_on_customer_reply: false,
            is_tester: fields.is_tester ?? false,
            created_by_token_id: author.uuid,
            author,
            error: null,
            history: [scheduleHistoryEntry('created', 'pending', createdAt)],
            fired_at: null,
            fire_claim: null,
            delivery: null,
            note_id: null,
            created_at: createdAt,
            updated_at: createdAt,
          });
          expect(stored).toBe('inserted');
        }),
      );
    }
    return { businessId, ids };
  }

  const replica = (publisher: ConversationCommandPublisher, replicaId: string, options: { chunkSize?: number } = {}) =>
    new FiringPass({ repository, businesses, publisher, clock, logger }, { replicaId, leaseMs: LEASE_MS, batchSize: 2000, chunkSize: options.chunkSize ?? 500 });

  /** Runs the replicas' passes together, round after round, until a round fires nothing. */
  async function fireUntilDone(passes: FiringPass[]): Promise<void> {
    for (;;) {
      const fired = await Promise.all(passes.map((pass) => pass.run()));
      if (fired.every((result) => result.fired === 0)) return;
    }
  }

  const stored = (ids: readonly string[]) => storedCollection('scheduled_messages').find({ _id: { $in: ids as never[] } }).toArray();

  it('three replicas polling together fire 1,200 due schedules, each exactly once', async () => {
    const dueAt = new Date(Date.UTC(2031, 0, 1, 10, 0));
    const { ids } = await pendingSchedules(1200, dueAt);
    now = new Date(dueAt.getTime() + 5_000);
    const publishers = [0, 1, 2].map(() => new RecordingPublisher(stream));

    await fireUntilDone(publishers.map((publisher, index) => replica(publisher, `replica-${index}`, { chunkSize: 100 })));

    const counts = countsOf(publishers.flatMap((publisher) => publisher.produced));
    const lost = ids.filter((id) => !counts.has(id)).length;
    const twice = [...counts.values()].filter((count) => count > 1).length;
    report(`3 firer replicas on 1,200 due schedules (${publishers.map((publisher) => publisher.produced.length).join(' / ')} produced)`, { writers: 3, lost, twice });
    expect({ lost, twice, produced: counts.size }).toEqual({ lost: 0, twice: 0, produced: 1200 });
    expect(publishers.filter((publisher) => publisher.produced.length > 0).length).toBeGreaterThan(1);
    const records = await stored(ids);
    for (const record of records) {
      expect(record).toMatchObject({ status: 'firing', fired_at: now });
      expect(record['pending_conversation_key']).toBeUndefined();
      expect(record['pending_id']).toBeUndefined();
      expect(record['fire_lease_until']).toBeUndefined();
      expect(record['produced_at'].getTime()).toBeGreaterThanOrEqual(record['fired_at'].getTime());
      expect(record['history'].filter((entry: { event: string }) => entry.event === 'fired')).toHaveLength(1);
    }
  });

  it('a chunk whose produce failed is produced again after its lease, and only once', async () => {
    const dueAt = new Date(Date.UTC(2031, 0, 1, 10, 1));
    const { ids } = await pendingSchedules(40, dueAt);
    now = new Date(dueAt.getTime() + 1_000);
    const publisher = new RecordingPublisher(stream);
    publisher.failNextBatch = true;
    const replicas = [replica(publisher, 'replica-a'), replica(publisher, 'replica-b')];

    // Claimed, then the broker refuses the batch: nothing went out, the claim holds its lease.
    expect(await replicas[0]!.run()).toEqual({ fired: 0, full: false });
    expect((await stored(ids)).every((record) => record['status'] === 'firing' && record['fire_lease_until'] instanceof Date)).toBe(true);
    now = new Date(now.getTime() + LEASE_MS / 2);
    expect((await replicas[1]!.run()).fired).toBe(0);

    now = new Date(now.getTime() + LEASE_MS);
    const takenOver = await Promise.all(replicas.map((pass) => pass.run()));

    expect(takenOver[0]!.fired + takenOver[1]!.fired).toBe(40);
    expect([...publisher.produced].sort()).toEqual([...ids].sort());
    for (const record of await stored(ids)) {
      expect(record['history'].map((entry: { detail: unknown }) => entry.detail)).toEqual([null, { replica: 'replica-a' }, { replica: expect.any(String), takeover: true }]);
    }
    now = new Date(now.getTime() + LEASE_MS * 2);
    await fireUntilDone(replicas);
    expect(publisher.produced).toHaveLength(40);
  });

  it('fire racing cancel: each of 50 due schedules is either fired once or cancelled, never both', async () => {
    const dueAt = new Date(Date.UTC(2031, 0, 1, 10, 2));
    const { businessId, ids } = await pendingSchedules(50, dueAt);
    now = new Date(dueAt.getTime() + 1_000);
    const publishers = [new RecordingPublisher(stream), new RecordingPublisher(stream)];
    const scope = businessScope(businessId);
    const actor = { type: 'api_token' as const, uuid: randomUUID() };
    // The cancellations' events stay in the schedules' outboxes: recording them is not under test here.
    const events = { recordQuietly: async () => undefined };

    // The firers claim five schedules at a time while the cancellations arrive spread over the same
    // stretch: some schedules are claimed first, others cancelled first, and some chunks lose part
    // of their schedules to a cancellation (the claim then reads which ones it holds).
    const cancelLater = (id: string, index: number) => sleep(index * 5).then(() => cancelScheduledMessage(scope, id, actor, { schedules: repository, events, clock }));
    const [cancels] = await Promise.all([
      Promise.all(ids.map((id, index) => cancelLater(id, index).then(() => 'cancelled' as const, (error: { code?: string }) => error.code ?? 'error'))),
      fireUntilDone(publishers.map((publisher, index) => replica(publisher, `racer-${index}`, { chunkSize: 5 }))),
    ]);

    const counts = countsOf(publishers.flatMap((publisher) => publisher.produced));
    const records = new Map((await stored(ids)).map((record) => [String(record['_id']), record]));
    let both = 0;
    let lost = 0;
    for (const [index, id] of ids.entries()) {
      const cancelled = cancels[index] === 'cancelled';
      const fired = counts.get(id) ?? 0;
      if (cancelled && fired > 0) both += 1;
      if (!cancelled && fired === 0) lost += 1;
      expect({ id, status: records.get(id)!['status'] }).toEqual({ id, status: cancelled ? 'cancelled' : 'firing' });
      if (!cancelled) expect(cancels[index]).toBe('SCHEDULE_CONFLICT');
    }
    const twice = [...counts.values()].filter((count) => count > 1).length + both;
    report(`fire racing cancel on 50 schedules, 2 firers and 50 cancellers (${cancels.filter((outcome) => outcome === 'cancelled').length} cancelled)`, { writers: 52, lost, twice });
    expect({ lost, twice }).toEqual({ lost: 0, twice: 0 });
  });

  it("a tester schedule fires on its business's virtual clock", async () => {
    const dueAt = new Date(Date.UTC(2031, 0, 3, 10, 0));
    now = new Date(Date.UTC(2031, 0, 1, 10, 0));
    const { businessId, ids } = await pendingSchedules(1, dueAt, { is_tester: true });
    await storedCollection('businesses').insertOne({ _id: businessId as never, slug: `b-${businessId}`, slug_lower: `b-${businessId}`, name: 'B', tester_clock_offset_ms: 0, created_at: now });
    const publisher = new RecordingPublisher(stream);
    const pass = replica(publisher, 'tester-replica');

    await fireUntilDone([pass]);
    expect(publisher.produced).toEqual([]);

    expect(await businesses.advanceTesterClock(businessScope(businessId), 2 * 86_400_000)).toBe(2 * 86_400_000);
    await fireUntilDone([pass]);
    expect(publisher.produced).toEqual(ids);
  });
});
