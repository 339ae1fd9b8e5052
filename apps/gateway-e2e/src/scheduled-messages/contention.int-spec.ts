import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiResponse } from '@cmsg/testing';
import { storedCollection, uniquePhone } from '@cmsg/testing';
import {
  type SchedulingBusiness,
  createSchedulingBusiness,
  humanSchedule,
  isFinal,
  makeAllDueNow,
  openConversation,
  pendingScheduleOf,
  sendsTo,
  storedSchedule,
  waitForSchedule,
} from './scheduling-fixtures';

/*
 * Contended schedule writes through the whole stack (gateway, scheduler, actions-runner): at least
 * 50 concurrent writers each; nothing lost, nothing done twice, the final state exactly what the
 * writes imply. Each test prints writers / lost / twice.
 */
const ZONE = 'America/Mexico_City';
const WRITERS = 50;
/** Tokens per business: each has its own 60 requests a minute. */
const TOKENS = 6;

function report(test: string, figures: { writers: number; lost: number; twice: number }): void {
  console.log(`[contention] ${test}: writers ${figures.writers}, lost ${figures.lost}, twice ${figures.twice}`);
}

const cancellations = (history: { event: string }[]) => history.filter((entry) => entry.event === 'cancelled').length;

async function schedulesOf(conversation: string): Promise<{ _id: string; status: string; history: { event: string; reason: string | null; detail?: Record<string, unknown> | null }[] }[]> {
  return storedCollection<{ _id: string; status: string; history: { event: string; reason: string | null }[] }>('scheduled_messages').find({ conversation_id: conversation }).toArray();
}

describe('contended schedule writes (real stack)', () => {
  let business: SchedulingBusiness;
  const conversations = { creates: '', createVsCancel: '', cancels: '' };
  const fireVsCancel = Array.from({ length: WRITERS }, () => ({ phone: uniquePhone(), conversation: '' }));

  beforeAll(async () => {
    business = await createSchedulingBusiness(
      (seed) => {
        conversations.creates = openConversation(seed);
        conversations.createVsCancel = openConversation(seed);
        conversations.cancels = openConversation(seed);
        for (const entry of fireVsCancel) entry.conversation = openConversation(seed, {}, { phone: entry.phone });
      },
      { tokens: TOKENS },
    );
  });

  const create = (conversation: string, text: string) =>
    business.nextClient().post('/conversation/scheduled-message', humanSchedule(conversation, ZONE, business.catalog, { payload: { kind: 'message', text } }));
  const cancel = (uuid: string) => business.nextClient().delete(`/scheduled-messages/${uuid}`);

  it('50 concurrent creates on one conversation: one pending at the end, every other one replaced or refused with SCHEDULE_CONFLICT', async () => {
    const answers = await Promise.all(Array.from({ length: WRITERS }, (_, index) => create(conversations.creates, `create ${index}`)));

    const created = answers.filter((answer) => answer.status === 201).map((answer) => answer.body.data.uuid as string);
    const refused = answers.filter((answer) => answer.status === 409 && answer.body.code === 'SCHEDULE_CONFLICT');
    const stored = await schedulesOf(conversations.creates);
    const pending = stored.filter((schedule) => schedule.status === 'pending');
    // Every 201 is stored; every stored schedule answered 201; each replaced one was cancelled once, as replaced.
    const lost = WRITERS - created.length - refused.length + created.filter((uuid) => !stored.some((schedule) => schedule._id === uuid)).length;
    const twice = Math.max(0, pending.length - 1) + stored.filter((schedule) => cancellations(schedule.history) > 1).length;
    report(`50 concurrent creates on one conversation (${created.length} created, ${refused.length} refused)`, { writers: WRITERS, lost, twice });
    expect({ lost, twice }).toEqual({ lost: 0, twice: 0 });
    expect(created.length).toBeGreaterThan(0);
    expect(stored.map((schedule) => schedule._id).sort()).toEqual([...created].sort());
    expect(pending).toHaveLength(1);
    expect(await pendingScheduleOf(conversations.creates)).toBe(pending[0]!._id);
    for (const schedule of stored.filter((entry) => entry.status !== 'pending')) {
      expect(schedule).toMatchObject({ status: 'cancelled', history: [expect.objectContaining({ event: 'created' }), expect.objectContaining({ event: 'cancelled', reason: 'replaced' })] });
    }
  });

  it('creates racing cancels of the pending schedule: it is cancelled once, one new schedule stays pending', async () => {
    const first = await create(conversations.createVsCancel, 'first');
    expect(first.status).toBe(201);
    const target = first.body.data.uuid as string;

    const answers: ApiResponse[] = await Promise.all(
      Array.from({ length: WRITERS }, (_, index) => (index % 2 === 0 ? create(conversations.createVsCancel, `racer ${index}`) : cancel(target))),
    );

    const creates = answers.filter((_, index) => index % 2 === 0);
    const deletes = answers.filter((_, index) => index % 2 === 1);
    const stored = await schedulesOf(conversations.createVsCancel);
    const targetRecord = stored.find((schedule) => schedule._id === target)!;
    const pending = stored.filter((schedule) => schedule.status === 'pending');
    const created = creates.filter((answer) => answer.status === 201).map((answer) => answer.body.data.uuid as string);
    const lost =
      creates.filter((answer) => answer.status !== 201 && !(answer.status === 409 && answer.body.code === 'SCHEDULE_CONFLICT')).length +
      deletes.filter((answer) => answer.status !== 200 || answer.body.status !== 'cancelled').length;
    const twice = cancellations(targetRecord.history) - 1 + Math.max(0, pending.length - 1);
    report(`25 creates racing 25 cancels of the pending schedule (${created.length} created)`, { writers: WRITERS, lost, twice });
    expect({ lost, twice }).toEqual({ lost: 0, twice: 0 });
    expect(targetRecord.status).toBe('cancelled');
    expect(pending).toHaveLength(1);
    expect(created).toContain(pending[0]!._id);
    expect(stored.map((schedule) => schedule._id).sort()).toEqual([target, ...created].sort());
  });

  it('50 concurrent cancels of one schedule: all answer it cancelled, one cancellation recorded', async () => {
    const created = await create(conversations.cancels, 'to cancel');
    const uuid = created.body.data.uuid as string;

    const answers = await Promise.all(Array.from({ length: WRITERS }, () => cancel(uuid)));

    const schedule = (await storedSchedule(uuid))!;
    const lost = answers.filter((answer) => answer.status !== 200 || answer.body.status !== 'cancelled').length;
    const twice = cancellations(schedule.history) - 1;
    report('50 concurrent cancels of one schedule', { writers: WRITERS, lost, twice });
    expect({ lost, twice }).toEqual({ lost: 0, twice: 0 });
    expect(schedule.status).toBe('cancelled');
    expect(await pendingScheduleOf(conversations.cancels)).toBeNull();
  });

  it('fire racing cancel: each of 50 schedules made due and cancelled at once is either sent once or cancelled, never both', async () => {
    const uuids: string[] = [];
    for (const [index, entry] of fireVsCancel.entries()) {
      const created = await create(entry.conversation, `race ${index}`);
      expect(created.status).toBe(201);
      uuids.push(created.body.data.uuid);
    }

    await makeAllDueNow(uuids);
    // Spread over two seconds, so the scheduler's passes (every second) land among the cancellations.
    const answers = await Promise.all(uuids.map(async (uuid, index) => (await sleep(index * 40), cancel(uuid))));

    let lost = 0;
    let twice = 0;
    for (const [index, uuid] of uuids.entries()) {
      const schedule = await waitForSchedule(uuid, isFinal, 60_000);
      const sends = await sendsTo(fireVsCancel[index]!.phone);
      const cancelled = answers[index]!.status === 200;
      if (cancelled ? schedule.status !== 'cancelled' || sends.length > 0 : schedule.status !== 'sent' || sends.length > 1) twice += 1;
      if (!cancelled && (answers[index]!.body.code !== 'SCHEDULE_CONFLICT' || sends.length === 0)) lost += 1;
    }
    report(`fire racing cancel on 50 due schedules (${answers.filter((answer) => answer.status === 200).length} cancelled)`, { writers: 2 * WRITERS, lost, twice });
    expect({ lost, twice }).toEqual({ lost: 0, twice: 0 });
  }, 120_000);

  it('50 concurrent tester clock advances of one second move the clock exactly 50 s', async () => {
    const fresh = await createSchedulingBusiness(() => undefined, { tokens: TOKENS });
    const before = Date.now();
    const answers = await Promise.all(Array.from({ length: WRITERS }, () => fresh.nextClient().post('/tester/clock', { advance_seconds: 1 })));
    const after = Date.now();

    const business = await storedCollection<{ _id: string; tester_clock_offset_ms: number }>('businesses').findOne({ _id: fresh.businessId });
    const offsets = answers.filter((answer) => answer.status === 200).map((answer) => Date.parse(answer.body.tester_virtual_now));
    const lost = WRITERS - offsets.length + (50_000 - business!.tester_clock_offset_ms) / 1000;
    report('50 concurrent tester clock advances', { writers: WRITERS, lost, twice: Math.max(0, business!.tester_clock_offset_ms - 50_000) / 1000 });
    expect(business!.tester_clock_offset_ms).toBe(50_000);
    expect(lost).toBe(0);
    // Each answer is the real now of its request plus the offset its own advance produced (1..50 s).
    for (const virtualNow of offsets) {
      expect(virtualNow).toBeGreaterThanOrEqual(before + 1000);
      expect(virtualNow).toBeLessThanOrEqual(after + 50_000);
    }
  });
});
