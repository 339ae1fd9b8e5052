import { randomBytes, randomUUID } from 'node:crypto';
import { CommandStreamProducer, ensureTopics } from '@cmsg/command-stream';
import { scheduleDueMinute, type ScheduledMessageCommand } from '@cmsg/conversation-commands';
import { ConversationScheduleSlotModel, ScheduleClaimModel, ScheduledMessageModel } from '@cmsg/dal';
import { createKafka, createLogger } from '@cmsg/platform';
import { Partitioners, type Producer } from 'kafkajs';
import mongoose from 'mongoose';
import type { ConversationCommandPublisher } from '../ports';
import { ScheduledMessageRepository } from '../scheduled-message.repository';
import { ScheduleFirer } from './schedule-firer';

const logger = createLogger('schedule-firer-int-spec', process.env['LOG_LEVEL'] ?? 'silent');
const LEASE_MS = 30_000;

/** The real command topic behind the port; it records what Kafka accepted and can refuse the next batch. */
class RecordingPublisher implements ConversationCommandPublisher {
  readonly produced: string[] = [];
  failNextBatch = false;

  constructor(private readonly stream: CommandStreamProducer<ScheduledMessageCommand>) {}

  async submit(conversationId: string, command: ScheduledMessageCommand): Promise<void> {
    await this.stream.submit(conversationId, command);
    this.produced.push(command.schedule_uuid);
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

/** Firing against the real FerretDB and Kafka, with a clock the test moves. */
describe('ScheduleFirer (real FerretDB and Kafka)', () => {
  const dbName = `scheduler_firer_it_${randomBytes(4).toString('hex')}`;
  const kafka = createKafka(`schedule-firer-int-${process.pid}`, (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:19092').split(','), logger);
  const topic = `test-${randomUUID().slice(0, 8)}-conversation-commands`;
  let producer: Producer;
  let stream: CommandStreamProducer<ScheduledMessageCommand>;
  let now: Date;
  const clock = { now: () => now };

  beforeAll(async () => {
    await mongoose.connect(process.env['MONGODB_URI'] ?? 'mongodb://127.0.0.1:27117/', { dbName, serverSelectionTimeoutMS: 10_000 });
    await Promise.all([ScheduledMessageModel.createIndexes(), ScheduleClaimModel.createIndexes(), ConversationScheduleSlotModel.createIndexes()]);
    await ensureTopics(kafka, [topic], { partitions: 3 });
    producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    stream = new CommandStreamProducer({ producer, topic });
  });

  // The database (unique to this run) is left in place: see libs/testing/src/global-teardown.ts.
  afterAll(async () => {
    await producer.disconnect();
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
    await mongoose.disconnect();
  });

  /** `count` pending schedules of a new business due at `dueAt`, each holding its conversation's slot. */
  async function pendingSchedules(count: number, dueAt: Date): Promise<string[]> {
    const businessId = randomUUID();
    const author = { type: 'api_token', uuid: randomUUID() };
    const records = Array.from({ length: count }, () => ({
      _id: randomUUID(),
      business_id: businessId,
      conversation_id: randomUUID(),
      status: 'pending',
      executor_kind: 'human_user',
      message_kind: 'message',
      payload: { kind: 'message', text: 'hello' },
      template_id: randomUUID(),
      schedule_at: dueAt,
      due_minute: scheduleDueMinute(dueAt),
      created_by_token_id: author.uuid,
      author,
      created_at: new Date(dueAt.getTime() - 3_600_000),
      updated_at: new Date(dueAt.getTime() - 3_600_000),
    }));
    await ScheduledMessageModel.insertMany(records);
    await ConversationScheduleSlotModel.insertMany(
      records.map((record) => ({ _id: `${record.conversation_id}:1`, business_id: businessId, conversation_id: record.conversation_id, seq: 1, schedule_id: record._id, previous_schedule_id: null, created_at: record.created_at })),
    );
    return records.map((record) => record._id);
  }

  const firer = (publisher: ConversationCommandPublisher, replicaId: string) =>
    new ScheduleFirer({ repository: new ScheduledMessageRepository(), publisher, clock, logger }, { replicaId, leaseMs: LEASE_MS, batchSize: 2000, catchUpIntervalMs: 3_600_000 });

  it('fires 1,200 due schedules once between two replicas polling at the same moment, in chunks', async () => {
    const dueAt = new Date(Date.UTC(2031, 0, 1, 10, 0));
    const ids = await pendingSchedules(1200, dueAt);
    now = new Date(dueAt.getTime() + 5_000);
    const publishers = [new RecordingPublisher(stream), new RecordingPublisher(stream)];
    const replicas = publishers.map((publisher, index) => firer(publisher, `replica-${index}`));

    const fired = await Promise.all(replicas.map((replica) => replica.pollOnce()));

    const produced = publishers.flatMap((publisher) => publisher.produced);
    expect(produced.sort()).toEqual([...ids].sort());
    expect(fired[0]! + fired[1]!).toBe(1200);
    const records = await ScheduledMessageModel.find({ _id: { $in: ids } }, { status: 1, fire_attempts: 1, fire_owner: 1, fired_at: 1 }).lean<
      { _id: string; status: string; fire_attempts: number; fire_owner: string; fired_at: Date }[]
    >();
    expect(records.every((record) => record.status === 'firing' && record.fire_attempts === 1 && record.fired_at.getTime() === now.getTime())).toBe(true);
    for (const [index, publisher] of publishers.entries()) {
      const owned = records.filter((record) => record.fire_owner === `replica-${index}`).map((record) => record._id);
      expect(owned.sort()).toEqual([...publisher.produced].sort());
    }
    expect(await Promise.all(replicas.map((replica) => replica.pollOnce()))).toEqual([0, 0]);
  });

  it('produces a chunk whose produce failed once more, after the lease, and only once', async () => {
    // A minute after the first test's: its schedules have no outcome and would be produced again 15 min on.
    const dueAt = new Date(Date.UTC(2031, 0, 1, 10, 1));
    const ids = await pendingSchedules(40, dueAt);
    now = new Date(dueAt.getTime() + 1_000);
    const publisher = new RecordingPublisher(stream);
    publisher.failNextBatch = true;
    const replicas = [firer(publisher, 'replica-a'), firer(publisher, 'replica-b')];

    // The fates are claimed, then the broker refuses the batch: nothing went out, the records stay pending.
    expect(await replicas[0]!.pollOnce()).toBe(0);
    expect(publisher.produced).toEqual([]);
    expect(await ScheduleClaimModel.countDocuments({ _id: { $in: ids.map((id) => `fate:${id}`) } })).toBe(40);
    // Within the lease nobody takes the claimed fates over.
    now = new Date(now.getTime() + 1_000);
    expect(await replicas[1]!.pollOnce()).toBe(0);
    now = new Date(now.getTime() + LEASE_MS / 2);
    expect(await replicas[1]!.pollOnce()).toBe(0);

    now = new Date(now.getTime() + LEASE_MS);
    const takenOver = await Promise.all(replicas.map((replica) => replica.pollOnce()));

    expect(takenOver[0]! + takenOver[1]!).toBe(40);
    expect([...publisher.produced].sort()).toEqual([...ids].sort());
    const records = await ScheduledMessageModel.find({ _id: { $in: ids } }, { status: 1, fire_attempts: 1 }).lean<{ status: string; fire_attempts: number }[]>();
    expect(records.every((record) => record.status === 'firing' && record.fire_attempts === 2)).toBe(true);
    now = new Date(now.getTime() + LEASE_MS * 2);
    expect(await Promise.all(replicas.map((replica) => replica.pollOnce()))).toEqual([0, 0]);
    expect(publisher.produced).toHaveLength(40);
  });
});
