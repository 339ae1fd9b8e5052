import { AppProcess, freePort, integrationStack, storedCollection, uniquePhone } from '@cmsg/testing';
import { type SchedulingBusiness, createSchedulingBusiness, humanSchedule, makeAllDueNow, openConversation, sendsTo, storedSchedule } from './scheduling-fixtures';

/*
 * Exactly once with several scheduler replicas, one killed (SIGKILL) while it fires: every schedule
 * reaches the fake Cloud API exactly once. Two extra replicas run beside the stack's own (they take
 * over a dead replica's firing after a 3 s lease). Needs the actions-runner to execute
 * scheduled_message commands (skipped until it does).
 */
const ZONE = 'America/Mexico_City';
const SCHEDULES = 40;

async function startExtraScheduler(name: string): Promise<AppProcess> {
  const stack = integrationStack();
  const replica = new AppProcess(name, 'scheduler', {
    ...stack.env,
    GRPC_ADDRESS: `127.0.0.1:${await freePort()}`,
    SCHEDULER_REPLICA_ID: name,
    SCHEDULER_POLL_INTERVAL_MS: '200',
    SCHEDULER_FIRE_LEASE_MS: '3000',
    // A customer-reply consumer group of their own: the SIGKILL below would otherwise hold the
    // shared stack's group (and the customer-reply tests running beside this one) for the session
    // timeout until Kafka reassigns the dead member's partitions.
    CUSTOMER_REPLY_CONSUMER_GROUP_ID: `${name}-customer-replies`,
  }, stack.logDir);
  replica.start();
  const deadline = Date.now() + 30_000;
  while (!replica.logTail(50).includes('scheduler listening')) {
    if (Date.now() > deadline || !replica.running) throw new Error(`${name} did not start:\n${replica.logTail(30)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return replica;
}

describe('firing exactly once with scheduler replicas dying', () => {
  let business: SchedulingBusiness;
  const phones = Array.from({ length: SCHEDULES }, () => uniquePhone());
  const conversations: string[] = [];
  const replicas: AppProcess[] = [];

  beforeAll(async () => {
    business = await createSchedulingBusiness((seed) => {
      for (const phone of phones) conversations.push(openConversation(seed, {}, { phone }));
    }, { tokens: 3 });
    replicas.push(await startExtraScheduler(`scheduler-extra-a-${process.pid}`), await startExtraScheduler(`scheduler-extra-b-${process.pid}`));
  });

  afterAll(async () => {
    for (const replica of replicas) await replica.stop('SIGTERM');
  });

  it('every schedule is sent once although a replica is killed mid-run', async () => {
    const uuids: string[] = [];
    for (const [index, conversation] of conversations.entries()) {
      const created = await business.nextClient().post('/conversation/scheduled-message', humanSchedule(conversation, ZONE, business.catalog, { payload: { kind: 'message', text: `Reminder #${index}` } }));
      expect(created.status).toBe(201);
      uuids.push(created.body.data.uuid);
    }
    // All due at once; the first extra replica dies while the three replicas fire them.
    await makeAllDueNow(uuids);
    await new Promise((resolve) => setTimeout(resolve, 150));
    await replicas[0]!.stop('SIGKILL');

    const deadline = Date.now() + 60_000;
    let done = 0;
    while (Date.now() < deadline) {
      done = 0;
      for (const uuid of uuids) if (['sent', 'failed'].includes((await storedSchedule(uuid))?.status ?? '')) done += 1;
      if (done === SCHEDULES) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(done).toBe(SCHEDULES);
    for (const [index, phone] of phones.entries()) {
      const sends = (await sendsTo(phone)) as { body: { text?: { body: string } } }[];
      expect({ phone, texts: sends.map((send) => send.body.text?.body) }).toEqual({ phone, texts: [`Reminder #${index}`] });
    }
    for (const uuid of uuids) {
      const schedule = (await storedSchedule(uuid))!;
      expect(schedule.status).toBe('sent');
      // Claimed once from pending; a firing the dead replica claimed and never produced is taken over.
      const firings = schedule.history.filter((entry) => entry.event === 'fired') as unknown as { detail: { takeover?: boolean } }[];
      expect(firings.filter((entry) => !entry.detail.takeover)).toHaveLength(1);
    }
  }, 120_000);

  it('a replica that died after claiming a schedule and before producing it: another one takes over after the lease', async () => {
    const phone = uniquePhone();
    let conversation = '';
    const lone = await createSchedulingBusiness((seed) => {
      conversation = openConversation(seed, {}, { phone });
    });
    const created = await lone.api.post('/conversation/scheduled-message', humanSchedule(conversation, ZONE, lone.catalog, { payload: { kind: 'message', text: 'Taken over' } }));
    const uuid = created.body.data.uuid as string;
    // What a replica killed between its claim and the produce leaves behind: claimed ten seconds
    // ago, its lease expired a second ago, no command produced.
    const claimedAt = new Date(Date.now() - 10_000);
    await storedCollection('scheduled_messages').updateOne(
      { _id: uuid as never, status: 'pending' },
      {
        $set: { status: 'firing', schedule_at: claimedAt, fire_claim: 'dead-replica/claim', fire_lease_until: new Date(Date.now() - 1000), fired_at: claimedAt },
        $unset: { pending_conversation_key: '', pending_id: '' },
        $push: { history: { at: claimedAt, event: 'fired', status: 'firing', reason: null, actor: { type: 'system', uuid: null }, detail: { replica: 'dead-replica' } } as never },
      },
    );

    const deadline = Date.now() + 30_000;
    while ((await storedSchedule(uuid))?.status !== 'sent' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await storedSchedule(uuid))!.status).toBe('sent');
    expect(((await sendsTo(phone)) as { body: { text?: { body: string } } }[]).map((send) => send.body.text?.body)).toEqual(['Taken over']);
    const firings = (await storedSchedule(uuid))!.history.filter((entry) => entry.event === 'fired');
    expect(firings).toEqual([expect.objectContaining({ detail: { replica: 'dead-replica' } }), expect.objectContaining({ detail: expect.objectContaining({ takeover: true }) })]);
  }, 60_000);
});
