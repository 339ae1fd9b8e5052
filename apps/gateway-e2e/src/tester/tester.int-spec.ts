import { randomUUID } from 'node:crypto';
import { TOPIC } from '@cmsg/platform';
import { eventually, storedCollection } from '@cmsg/testing';
import { KafkaTopicProbe } from '@cmsg/testing/kafka';
import {
  type SchedulingBusiness,
  aiModelOf,
  aiProvider,
  createSchedulingBusiness,
  humanSchedule,
  localIn,
  openConversation,
  storedSchedule,
  waitForSchedule,
} from '../scheduled-messages/scheduling-fixtures';

const ZONE = 'America/Mexico_City';
const DAY_SECONDS = 24 * 60 * 60;

describe('tester module (CONTRACT 6)', () => {
  let business: SchedulingBusiness;
  let realConversation = '';
  let aiTester = '';
  let pendingAiTester = '';
  let burstTester = '';
  let probe: KafkaTopicProbe;

  beforeAll(async () => {
    business = await createSchedulingBusiness(
      (seed, catalog) => {
        realConversation = openConversation(seed);
        aiTester = openConversation(seed, { ai_employee: catalog.ai.ana }, { is_tester: true });
        pendingAiTester = openConversation(seed, { ai_employee: catalog.ai.ana, inbox_status: 'pending' }, { is_tester: true });
        burstTester = openConversation(seed, { ai_employee: catalog.ai.ana }, { is_tester: true });
      },
      { tokens: 4 },
    );
    probe = KafkaTopicProbe.forStackTopic(TOPIC.conversationCommands);
    await probe.start();
  });
  afterAll(() => probe.stop());

  const api = () => business.nextClient();

  it('POST /tester/contacts creates a tester contact and its conversation', async () => {
    const response = await api().post('/tester/contacts', { first_name: 'Tess', last_name: 'Ter', phone: '+52 1 55 0000 1111', chat_username: '@tess' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      contact: expect.objectContaining({ uuid: expect.any(String), first_name: 'Tess', last_name: 'Ter', full_name: 'Tess Ter', chat_id: '5215500001111', chat_username: 'tess', is_tester: true }),
      conversation: { uuid: expect.any(String) },
    });
    const listed = await api().get('/tester/contacts');
    expect(listed.body.items.map((contact: { uuid: string }) => contact.uuid)).toContain(response.body.contact.uuid);
    const status = await api().post('/conversation/status', { conversation: { uuid: response.body.conversation.uuid } });
    expect(status.body).toMatchObject({ is_tester: true, window: { status: 'closed' } });
    expect((await api().post('/tester/contacts', { channel: 'no-such-channel' })).body.code).toBe('CHANNEL_NOT_FOUND');
  });

  it('POST /tester/inbound opens the window on the virtual clock, and refuses a real conversation', async () => {
    const created = await api().post('/tester/contacts', {});
    const conversation = created.body.conversation.uuid;
    const inbound = await api().post('/tester/inbound', { conversation: { uuid: conversation }, text: 'Hola, ¿tienen envío?' });
    expect(inbound.status).toBe(201);
    expect(inbound.body).toEqual({ conversation: { uuid: conversation }, message: { uuid: expect.any(String), created_at: expect.any(String) }, cancelled_schedules: [], ai_run: null });
    const status = await api().post('/conversation/status', { conversation: { uuid: conversation } });
    expect(status.body).toMatchObject({ window: { status: 'open' }, last_message: { uuid: inbound.body.message.uuid, is_from_customer: true } });

    const real = await api().post('/tester/inbound', { conversation: { uuid: realConversation }, text: 'hi' });
    expect([real.status, real.body.code]).toEqual([422, 'NOT_A_TESTER_CONVERSATION']);
    expect((await api().post('/tester/inbound', { conversation: { uuid: randomUUID() }, text: 'hi' })).body.code).toBe('CONVERSATION_NOT_FOUND');
  });

  it('an inbound message cancels the schedules created with cancel_on_customer_reply, and only those', async () => {
    const created = await api().post('/tester/contacts', {});
    const conversation = created.body.conversation.uuid;
    await api().post('/tester/inbound', { conversation: { uuid: conversation }, text: 'first' });
    const kept = await api().post('/conversation/scheduled-message', humanSchedule(conversation, ZONE, business.catalog, { schedule_at: localIn(ZONE, 60) }));
    expect(kept.status).toBe(201);
    await api().post('/tester/inbound', { conversation: { uuid: conversation }, text: 'second' });
    expect((await storedSchedule(kept.body.data.uuid))!.status).toBe('pending');

    const flagged = await api().post('/conversation/scheduled-message', humanSchedule(conversation, ZONE, business.catalog, { schedule_at: localIn(ZONE, 60), cancel_on_customer_reply: true }));
    const reply = await api().post('/tester/inbound', { conversation: { uuid: conversation }, text: 'third' });
    expect(reply.body.cancelled_schedules).toEqual([flagged.body.data.uuid]);
    const view = await api().get(`/scheduled-messages/${flagged.body.data.uuid}`);
    expect(view.body).toMatchObject({ status: 'cancelled' });
    expect(view.body.history.at(-1)).toMatchObject({ event: 'cancelled', reason: 'customer_reply' });
  });

  it('with an AI assigned, the message queues an AI run (action_group, source run_ai) and the simulated reply is listed', async () => {
    const inbound = await api().post('/tester/inbound', { conversation: { uuid: aiTester }, text: '¿Cuánto cuesta el envío?' });
    expect(inbound.status).toBe(201);
    const groupUuid = inbound.body.ai_run.action_group.uuid;
    const command = await probe.waitFor((message) => message.value?.group_uuid === groupUuid);
    expect(command.key).toBe(aiTester);
    expect(command.value).toMatchObject({ kind: 'action_group', source: 'run_ai', conversation_uuid: aiTester, depth: 0, actions: [{ type: 'run_ai' }] });

    const deadline = Date.now() + 20_000;
    let items: { body: string; status: string; author: { type: string } | null }[] = [];
    while (Date.now() < deadline) {
      items = (await api().get('/tester/messages', { conversation_uuid: aiTester })).body.items;
      if (items.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(items[0]).toMatchObject({ status: 'simulated', author: { type: 'ai_employee' }, body: expect.stringContaining('¿Cuánto cuesta el envío?') });

    const pending = await api().post('/tester/inbound', { conversation: { uuid: pendingAiTester }, text: 'hello?' });
    expect(pending.body.ai_run).toBeNull();
  });

  it('a burst of simulated messages gets one AI reply, as real inbound does', async () => {
    const model = aiModelOf(business.catalog.ai.ana);
    // An assistance query the AI answers slowly holds the conversation's stream, so both messages
    // are recorded before the first one's run starts.
    await aiProvider().addRules({ match: { model }, delay_ms: 6000, times: 1 });
    const busy = await api().post('/conversation/actions', {
      conversation: { uuid: burstTester },
      actions: [{ type: 'ai_assistance', ai_employee: { uuid: business.catalog.ai.ana }, prompt: 'Resume la conversación' }],
    });
    expect(busy.status).toBe(202);
    const first = await api().post('/tester/inbound', { conversation: { uuid: burstTester }, text: 'Hola' });
    const second = await api().post('/tester/inbound', { conversation: { uuid: burstTester }, text: 'Quiero reservar para dos' });
    expect([first.status, second.status]).toEqual([201, 201]);
    const runs = [first.body.ai_run.action_group.uuid as string, second.body.ai_run.action_group.uuid as string];

    const groups = await eventually(
      () => storedCollection<{ _id: string; status: string; actions: { status: string }[] }>('action_groups').find({ _id: { $in: runs } }).toArray(),
      (found) => found.length === 2 && found.every((group) => group.status !== 'processing' && group.status !== 'queued'),
      60_000,
    );
    expect(groups.find((group) => group._id === runs[0])!.actions[0]!.status).toBe('noop');
    expect(groups.find((group) => group._id === runs[1])!.actions[0]!.status).toBe('succeeded');
    const replies = (await api().get('/tester/messages', { conversation_uuid: burstTester })).body.items as { body: string; author: { type: string } | null }[];
    expect(replies.filter((item) => item.author?.type === 'ai_employee').map((item) => item.body)).toEqual([expect.stringContaining('Quiero reservar para dos')]);
  });

  it('GET /tester/messages: 422 for a real conversation, 404 for an unknown one', async () => {
    expect((await api().get('/tester/messages', { conversation_uuid: realConversation })).body.code).toBe('NOT_A_TESTER_CONVERSATION');
    expect((await api().get('/tester/messages', { conversation_uuid: randomUUID() })).body.code).toBe('CONVERSATION_NOT_FOUND');
  });
});

describe('tester clock (CONTRACT 6)', () => {
  let business: SchedulingBusiness;

  beforeAll(async () => {
    business = await createSchedulingBusiness(() => undefined);
  });

  it('POST /tester/clock moves the virtual now forward, within 1..366 days', async () => {
    const before = Date.now();
    const moved = await business.api.post('/tester/clock', { advance_seconds: 3600 });
    expect(moved.status).toBe(200);
    const virtualNow = Date.parse(moved.body.tester_virtual_now);
    expect(virtualNow - before).toBeGreaterThanOrEqual(3600_000);
    expect(virtualNow - Date.now()).toBeLessThanOrEqual(3600_000 + 1000);
    for (const advance of [0, -5, 1.5, 366 * DAY_SECONDS + 1]) expect((await business.api.post('/tester/clock', { advance_seconds: advance })).status).toBe(400);
    expect((await business.api.post('/tester/clock', { advance_seconds: 366 * DAY_SECONDS })).status).toBe(200);
  });

  it('a tester schedule fires as soon as the clock passes its time, and its message is simulated', async () => {
    const fresh = await createSchedulingBusiness(() => undefined);
    const created = await fresh.api.post('/tester/contacts', {});
    const conversation = created.body.conversation.uuid;
    await fresh.api.post('/tester/inbound', { conversation: { uuid: conversation }, text: 'Remind me in two days' });
    const variables = [{ index: 1, value: 'Tess' }, { index: 2, value: 'jueves' }];
    const template = { message_kind: 'template', payload: { kind: 'template', template_uuid: fresh.catalog.templates.reminder, variables }, template_uuid: fresh.catalog.templates.reminder, template_variables: variables };
    const schedule = await fresh.api.post('/conversation/scheduled-message', humanSchedule(conversation, ZONE, fresh.catalog, { ...template, schedule_at: localIn(ZONE, 2 * 24 * 60) }));
    expect(schedule.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await storedSchedule(schedule.body.data.uuid))!.fired_at).toBeNull();

    await fresh.api.post('/tester/clock', { advance_seconds: 2 * DAY_SECONDS + 120 });
    // The clock has passed the schedule's time once the advance is answered (it may be answered late on
    // a loaded machine): the firing is bounded from then.
    const advancedAt = Date.now();
    const fired = await waitForSchedule(schedule.body.data.uuid, (stored) => stored.fired_at !== null, 20_000);
    expect(fired.fired_at!.getTime() - advancedAt).toBeLessThan(3000);

    const sent = await waitForSchedule(schedule.body.data.uuid, (stored) => ['sent', 'failed'].includes(stored.status), 20_000);
    expect(sent).toMatchObject({ status: 'sent', delivery: 'template' });
    const messages = await fresh.api.get('/tester/messages', { conversation_uuid: conversation });
    expect(messages.body.items[0]).toMatchObject({ status: 'simulated', content_type: 'template', body: 'Hola Tess, tu cita es el jueves.' });
  });
});
