import { randomUUID } from 'node:crypto';
import { storedCollection, uniquePhone } from '@cmsg/testing';
import {
  type SchedulingBusiness,
  aiModelOf,
  aiProvider,
  aiSchedule,
  closedConversation,
  createSchedulingBusiness,
  humanSchedule,
  isFinal,
  makeDueNow,
  openConversation,
  pendingScheduleOf,
  sendsTo,
  waitForSchedule,
} from './scheduling-fixtures';

/*
 * Firing end to end: scheduler -> Kafka conversation-commands -> actions-runner (executeFiredScheduledMessage)
 * -> conversations service -> fake Cloud API / fake AI.
 */
const ZONE = 'America/Mexico_City';

interface Sent {
  body: { type: string; text?: { body: string }; template?: { name: string; components?: { type: string; parameters: { text?: string }[] }[] } };
}

describe('firing a scheduled message', () => {
  let business: SchedulingBusiness;
  const phones = { humanOpen: uniquePhone(), humanClosed: uniquePhone(), quickReply: uniquePhone(), aiOpen: uniquePhone(), aiClosed: uniquePhone(), aiDefault: uniquePhone(), broke: uniquePhone() };
  const conversations: Record<keyof typeof phones, string> = { humanOpen: '', humanClosed: '', quickReply: '', aiOpen: '', aiClosed: '', aiDefault: '', broke: '' };

  beforeAll(async () => {
    business = await createSchedulingBusiness((seed, catalog) => {
      conversations.humanOpen = openConversation(seed, {}, { phone: phones.humanOpen });
      conversations.humanClosed = closedConversation(seed, {}, { phone: phones.humanClosed });
      conversations.quickReply = openConversation(seed, {}, { phone: phones.quickReply });
      conversations.aiOpen = openConversation(seed, { ai_employee: catalog.ai.ana }, { phone: phones.aiOpen });
      conversations.aiClosed = closedConversation(seed, { ai_employee: catalog.ai.ana }, { phone: phones.aiClosed });
      conversations.aiDefault = closedConversation(seed, { ai_employee: catalog.ai.ana }, { phone: phones.aiDefault });
      conversations.broke = openConversation(seed, { ai_employee: catalog.ai.bruno }, { phone: phones.broke });
    });
  });

  async function scheduleAndFire(body: Record<string, unknown>) {
    const created = await business.nextClient().post('/conversation/scheduled-message', body);
    expect(created.status).toBe(201);
    const uuid = created.body.data.uuid as string;
    await makeDueNow(uuid);
    return waitForSchedule(uuid, isFinal);
  }

  const sent = async (phone: string) => (await sendsTo(phone)) as Sent[];

  it('human, window open: the literal text is sent once, the schedule is sent and the conversation free', async () => {
    const schedule = await scheduleAndFire(humanSchedule(conversations.humanOpen, ZONE, business.catalog));
    expect(schedule).toMatchObject({ status: 'sent', delivery: 'literal', error: null });
    expect((await sent(phones.humanOpen)).map((record) => record.body.text?.body)).toEqual(['See you at 5']);
    expect(await pendingScheduleOf(conversations.humanOpen)).toBeNull();
    const view = await business.nextClient().get(`/scheduled-messages/${schedule._id}`);
    expect(view.body).toMatchObject({ status: 'sent', fired_at: expect.any(String) });
    expect(view.body.history.map((entry: { event: string }) => entry.event)).toEqual(['created', 'fired', 'sending', 'sent']);
  });

  it('human, window closed: its template is sent with the schedule variables', async () => {
    const { catalog } = business;
    const variables = [{ index: 1, value: 'Ana' }, { index: 2, value: 'lunes' }];
    const payload = { kind: 'template', template_uuid: catalog.templates.reminder, variables };
    const schedule = await scheduleAndFire(humanSchedule(conversations.humanClosed, ZONE, catalog, { message_kind: 'template', payload, template_uuid: catalog.templates.reminder, template_variables: variables }));
    expect(schedule).toMatchObject({ status: 'sent', delivery: 'template' });
    const [message] = await sent(phones.humanClosed);
    expect(message!.body.template).toMatchObject({ name: 'appointment_reminder' });
    expect(JSON.stringify(message!.body.template)).toContain('lunes');
  });

  it('human, window open, quick reply: one message per action, in order', async () => {
    const payload = { kind: 'quick_reply', quick_reply_uuid: business.catalog.quickReplies.welcome };
    const schedule = await scheduleAndFire(humanSchedule(conversations.quickReply, ZONE, business.catalog, { message_kind: 'quick_reply', payload }));
    expect(schedule.status).toBe('sent');
    expect((await sent(phones.quickReply)).map((record) => record.body.text?.body)).toEqual(['Welcome back!', 'How can we help?']);
  });

  it('AI, window open: the reason becomes a note the AI reads, and the AI reply is sent', async () => {
    const reason = `Ask whether the quote ${randomUUID().slice(0, 8)} was approved`;
    const schedule = await scheduleAndFire(aiSchedule(conversations.aiOpen, ZONE, { reason }));
    expect(schedule).toMatchObject({ status: 'sent', delivery: 'ai_run' });
    const notes = await storedCollection('timeline_events').find({ conversation_id: conversations.aiOpen, kind: 'note' }).toArray();
    expect(notes.map((note) => note['body'])).toEqual([reason]);
    const completions = await aiProvider().requests({ endpoint: 'chat.completions', model: aiModelOf(business.catalog.ai.ana) });
    expect(completions.some((record) => JSON.stringify(record.body).includes(reason))).toBe(true);
    const replies = await sent(phones.aiOpen);
    expect(replies).toHaveLength(1);
    expect(replies[0]!.body.text?.body).toMatch(/^AI\(/);
  });

  it('AI, window closed: the fallback template goes out instead, no AI run', async () => {
    const before = (await aiProvider().requests({ model: aiModelOf(business.catalog.ai.ana) })).length;
    const schedule = await scheduleAndFire(aiSchedule(conversations.aiClosed, ZONE, { template_uuid: business.catalog.templates.greeting }));
    expect(schedule).toMatchObject({ status: 'sent', delivery: 'ai_fallback_template' });
    expect((await sent(phones.aiClosed)).map((record) => record.body.template?.name)).toEqual(['greeting']);
    expect((await aiProvider().requests({ model: aiModelOf(business.catalog.ai.ana) })).length).toBe(before);
  });

  it("AI, window closed, no fallback given: the channel's default scheduled template", async () => {
    const schedule = await scheduleAndFire(aiSchedule(conversations.aiDefault, ZONE));
    expect(schedule.status).toBe('sent');
    expect((await sent(phones.aiDefault)).map((record) => record.body.template?.name)).toEqual(['we_miss_you']);
  });

  it('a failure ends the schedule failed with its code, nothing sent', async () => {
    const schedule = await scheduleAndFire(aiSchedule(conversations.broke, ZONE));
    expect(schedule).toMatchObject({ status: 'failed', error: { code: 'WALLET_BLOCKED' } });
    expect(await sent(phones.broke)).toHaveLength(0);
    const view = await business.nextClient().get(`/scheduled-messages/${schedule._id}`);
    expect(view.body).toMatchObject({ status: 'failed', error: { code: 'WALLET_BLOCKED', message: expect.any(String) } });
  });
});
