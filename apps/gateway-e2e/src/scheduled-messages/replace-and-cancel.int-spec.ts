import { randomUUID } from 'node:crypto';
import { storedCollection } from '@cmsg/testing';
import {
  type SchedulingBusiness,
  aiSchedule,
  createSchedulingBusiness,
  humanSchedule,
  makeDueNow,
  openConversation,
  pendingScheduleOf,
  storedSchedule,
  waitForSchedule,
} from './scheduling-fixtures';

const ZONE = 'America/Mexico_City';

/** Schedules of the conversation whose status is pending. */
async function pendingSchedulesOf(conversation: string): Promise<string[]> {
  const pending = await storedCollection('scheduled_messages').find({ conversation_id: conversation, status: 'pending' }).toArray();
  return pending.map((schedule) => String(schedule['_id']));
}

describe('one pending schedule per conversation (SPEC 3.2)', () => {
  let business: SchedulingBusiness;
  let other: SchedulingBusiness;
  const conversations = { replace: '', reuse: '', race: [] as string[], cancel: '', fired: '' };

  beforeAll(async () => {
    business = await createSchedulingBusiness(
      (seed, catalog) => {
        conversations.replace = openConversation(seed, { ai_employee: catalog.ai.ana });
        conversations.reuse = openConversation(seed);
        conversations.race = [openConversation(seed), openConversation(seed, { ai_employee: catalog.ai.ana }), openConversation(seed)];
        conversations.cancel = openConversation(seed);
        conversations.fired = openConversation(seed);
      },
      { tokens: 5 },
    );
    other = await createSchedulingBusiness(() => undefined);
  });

  const post = (body: unknown) => business.nextClient().post('/conversation/scheduled-message', body);

  it('a new schedule cancels the pending one in the same step, recording why', async () => {
    const first = await post(aiSchedule(conversations.replace, ZONE));
    const second = await post(aiSchedule(conversations.replace, ZONE, { reason: 'Second thoughts' }));
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(await pendingSchedulesOf(conversations.replace)).toEqual([second.body.data.uuid]);
    expect(await pendingScheduleOf(conversations.replace)).toBe(second.body.data.uuid);
    const replaced = await business.nextClient().get(`/scheduled-messages/${first.body.data.uuid}`);
    expect(replaced.body.status).toBe('cancelled');
    expect(replaced.body.history.at(-1)).toMatchObject({ event: 'cancelled', status: 'cancelled', reason: 'replaced', detail: { replaced_by: second.body.data.uuid } });
  });

  it('a reused scheduled_uuid is 409 SCHEDULE_CONFLICT and changes nothing, also once cancelled', async () => {
    const id = randomUUID();
    const created = await post(humanSchedule(conversations.reuse, ZONE, business.catalog, { scheduled_uuid: id }));
    expect(created.status).toBe(201);
    const again = await post(humanSchedule(conversations.reuse, ZONE, business.catalog, { scheduled_uuid: id, payload: { kind: 'message', text: 'Other' } }));
    expect([again.status, again.body.code]).toEqual([409, 'SCHEDULE_CONFLICT']);
    expect(await pendingSchedulesOf(conversations.reuse)).toEqual([id]);
    expect(await pendingScheduleOf(conversations.reuse)).toBe(id);
    expect((await storedSchedule(id))!.history).toHaveLength(1);

    expect((await business.nextClient().delete(`/scheduled-messages/${id}`)).status).toBe(200);
    const afterCancel = await post(humanSchedule(conversations.reuse, ZONE, business.catalog, { scheduled_uuid: id }));
    expect([afterCancel.status, afterCancel.body.code]).toEqual([409, 'SCHEDULE_CONFLICT']);
  });

  it('concurrent creates never leave two pending schedules: each ends 201 or 409 and exactly one stays pending', async () => {
    for (const conversation of conversations.race) {
      const isAi = conversation === conversations.race[1];
      const bodies = Array.from({ length: 8 }, (_, index) =>
        isAi ? aiSchedule(conversation, ZONE, { reason: `race ${index}` }) : humanSchedule(conversation, ZONE, business.catalog, { payload: { kind: 'message', text: `race ${index}` } }),
      );
      const answers = await Promise.all(bodies.map((body) => post(body)));
      for (const answer of answers) expect([201, 409]).toContain(answer.status);
      expect(answers.filter((answer) => answer.status === 409).every((answer) => answer.body.code === 'SCHEDULE_CONFLICT')).toBe(true);
      const pending = await pendingSchedulesOf(conversation);
      expect(pending).toHaveLength(1);
      expect(await pendingScheduleOf(conversation)).toBe(pending[0]);
      expect(answers.map((answer) => answer.body.data?.uuid)).toContain(pending[0]);
    }
  });

  it('DELETE cancels a pending schedule and releases the conversation; a repeat answers it unchanged', async () => {
    const created = await post(humanSchedule(conversations.cancel, ZONE, business.catalog));
    const uuid = created.body.data.uuid;
    const cancelled = await business.nextClient().delete(`/scheduled-messages/${uuid}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ uuid, status: 'cancelled', history: [expect.objectContaining({ event: 'created' }), expect.objectContaining({ event: 'cancelled', reason: 'api_request' })] });
    expect(await pendingScheduleOf(conversations.cancel)).toBeNull();
    const repeat = await business.nextClient().delete(`/scheduled-messages/${uuid}`);
    expect([repeat.status, repeat.body.status, repeat.body.updated_at]).toEqual([200, 'cancelled', cancelled.body.updated_at]);
  });

  it('DELETE of a schedule that already fired is 409 SCHEDULE_CONFLICT', async () => {
    const created = await post(humanSchedule(conversations.fired, ZONE, business.catalog));
    const uuid = created.body.data.uuid;
    await makeDueNow(uuid);
    await waitForSchedule(uuid, (schedule) => schedule.status !== 'pending' || schedule.fired_at !== null);
    await waitForSchedule(uuid, (schedule) => schedule.status !== 'pending');
    const response = await business.nextClient().delete(`/scheduled-messages/${uuid}`);
    expect([response.status, response.body.code]).toEqual([409, 'SCHEDULE_CONFLICT']);
  });

  it("GET and DELETE answer 404 SCHEDULED_MESSAGE_NOT_FOUND for an unknown uuid and for another business's schedule", async () => {
    const created = await post(humanSchedule(conversations.cancel, ZONE, business.catalog));
    const uuid = created.body.data.uuid;
    for (const path of [`/scheduled-messages/${randomUUID()}`, `/scheduled-messages/${uuid}`]) {
      const client = path.endsWith(uuid) ? other.api : business.nextClient();
      expect((await client.get(path)).body.code).toBe('SCHEDULED_MESSAGE_NOT_FOUND');
      expect((await client.delete(path)).body.code).toBe('SCHEDULED_MESSAGE_NOT_FOUND');
    }
    expect((await business.nextClient().get('/scheduled-messages/not-a-uuid')).status).toBe(400);
    expect((await storedSchedule(uuid))!.status).toBe('pending');
  });
});
