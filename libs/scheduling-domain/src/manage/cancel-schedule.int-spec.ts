import { randomBytes, randomUUID } from 'node:crypto';
import { SYSTEM_ACTOR } from '@cmsg/conversation-commands';
import { ScheduleClaimModel, ScheduledMessageModel, businessScope, claimOnce } from '@cmsg/dal';
import mongoose from 'mongoose';
import { ScheduledMessageRepository } from '../scheduled-message.repository';
import { CANCELLATION_REPAIR_AFTER_MS, cancelSchedule } from './cancel-schedule';

/** Cancelling a schedule another caller already cancelled, on the real FerretDB. */
describe('cancelSchedule when the cancellation was decided elsewhere', () => {
  const dbName = `scheduler_cancel_it_${randomBytes(4).toString('hex')}`;
  const repository = new ScheduledMessageRepository();
  const scope = businessScope(randomUUID());

  beforeAll(async () => {
    await mongoose.connect(process.env['MONGODB_URI'] ?? 'mongodb://127.0.0.1:27117/', { dbName, serverSelectionTimeoutMS: 10_000 });
    await ScheduleClaimModel.createIndexes();
  });

  // The database (unique to this run) is left in place: see libs/testing/src/global-teardown.ts.
  afterAll(async () => {
    await mongoose.disconnect();
  });

  async function pendingSchedule(createdAt: Date): Promise<{ _id: string; conversation_id: string }> {
    const schedule = {
      _id: randomUUID(),
      business_id: scope.businessId,
      conversation_id: randomUUID(),
      status: 'pending',
      executor_kind: 'human_user',
      schedule_at: new Date(createdAt.getTime() + 86_400_000),
      author: { type: 'api_token', uuid: randomUUID() },
      history: [{ at: createdAt, event: 'created', status: 'pending', reason: null, actor: null, detail: null }],
      created_at: createdAt,
      updated_at: createdAt,
    };
    await ScheduledMessageModel.create(schedule);
    return schedule;
  }

  it("leaves the record to the winner while it may still be writing it, and repairs a write lost after that", async () => {
    const decidedAt = new Date('2031-02-01T10:00:00Z');
    const schedule = await pendingSchedule(new Date(decidedAt.getTime() - 60_000));
    // Another caller won the fate and has not written the record yet.
    expect(await claimOnce(scope, 'fate', schedule._id, { decision: 'cancel', reason: 'api_request' }, decidedAt)).toBe(true);

    const soon = await cancelSchedule(repository, scope, schedule, 'customer_reply', SYSTEM_ACTOR, new Date(decidedAt.getTime() + 1_000));

    expect(soon).toBe('already_cancelled');
    expect((await ScheduledMessageModel.findById(schedule._id).lean())?.status).toBe('pending');

    const later = await cancelSchedule(repository, scope, schedule, 'customer_reply', SYSTEM_ACTOR, new Date(decidedAt.getTime() + CANCELLATION_REPAIR_AFTER_MS));

    expect(later).toBe('already_cancelled');
    const record = await ScheduledMessageModel.findById(schedule._id).lean<{ status: string; history: { event: string }[] }>();
    expect(record?.status).toBe('cancelled');
    // The repair sets the status only: the history entry is the winner's to write.
    expect(record?.history.map((entry) => entry.event)).toEqual(['created']);
  });
});
