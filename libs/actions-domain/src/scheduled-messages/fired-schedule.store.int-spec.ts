import { scheduleContextNoteId } from '@cmsg/conversation-commands';
import { TimelineEventRepository, businessScope, ensureIndexes } from '@cmsg/dal';
import { randomBytes, randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import type { FiredSchedule } from './fired-schedule.store';
import { MongoFiredScheduleStore } from './fired-schedule.store';

/** Against the real FerretDB: the context note is written once, whatever number of runs write it. */
describe('MongoFiredScheduleStore.addContextNote on FerretDB', () => {
  // A database of its own, left in place (dropping one can stall FerretDB's catalog).
  const dbName = `actions_domain_it_${randomBytes(4).toString('hex')}`;
  const store = new MongoFiredScheduleStore();
  const scope = businessScope('b1');

  beforeAll(async () => {
    await mongoose.connect(process.env['MONGODB_URI'] ?? 'mongodb://127.0.0.1:27117/', { dbName, serverSelectionTimeoutMS: 10_000 });
    await ensureIndexes();
  });

  afterAll(() => mongoose.disconnect());

  it('inserts the note under the schedule-derived id once; a repeated or concurrent write answers the same id', async () => {
    const schedule = { _id: randomUUID(), conversation_id: randomUUID(), reason: 'Follow up on the quote' } as FiredSchedule;
    const at = new Date();
    const ids = await Promise.all(Array.from({ length: 4 }, () => store.addContextNote(scope, schedule, 'token-1', at)));
    ids.push(await store.addContextNote(scope, schedule, 'token-1', new Date()));
    expect(new Set(ids)).toEqual(new Set([scheduleContextNoteId(schedule._id)]));
    const notes = await new TimelineEventRepository().findRecentOfKind(scope, schedule.conversation_id, 'note', 10);
    expect(notes).toEqual([expect.objectContaining({ _id: scheduleContextNoteId(schedule._id), kind: 'note', body: 'Follow up on the quote', author: { type: 'api_token', uuid: 'token-1' } })]);
  });
});
