import { fakeWamid, inboundTextWebhook, uniquePhone } from '@cmsg/testing';
import { channelOf, deliverWebhook } from '../inbound/inbound-fixtures';
import {
  type SchedulingBusiness,
  aiSchedule,
  createSchedulingBusiness,
  humanSchedule,
  isFinal,
  makeDueNow,
  openConversation,
  waitForSchedule,
} from '../scheduled-messages/scheduling-fixtures';
import { SYSTEM, type StoredEvent, eventRowsOf, eventsOfConversation, outboxOf, settledEvents, strictlyIncreasing, tokenAuthor, typesOf } from './event-fixtures';

jest.setTimeout(240_000);

const ZONE = 'America/Mexico_City';

/**
 * Scheduled message events (CONTRACT 9.2) and timeline rows (9.1) from every path: creation
 * (schedule_created), each way a schedule is cancelled (replaced, DELETE, owner change, customer
 * reply: scheduled_message.cancelled and schedule_cancelled), firing (schedule_fired) and its
 * outcome (scheduled_message.sent / .failed), with the AI schedule's reason note (note.created).
 */
describe('scheduled message events', () => {
  let business: SchedulingBusiness;
  const phones = { replyCancels: uniquePhone() };
  const conversations = { lifecycle: '', human: '', ai: '', broke: '', owner: '', replyCancels: '' };

  beforeAll(async () => {
    business = await createSchedulingBusiness((seed, catalog) => {
      conversations.lifecycle = openConversation(seed);
      conversations.human = openConversation(seed);
      conversations.ai = openConversation(seed, { ai_employee: catalog.ai.ana });
      conversations.broke = openConversation(seed, { ai_employee: catalog.ai.bruno });
      conversations.owner = openConversation(seed, { ai_employee: catalog.ai.ana, inbox_status: 'resolved' });
      conversations.replyCancels = openConversation(seed, {}, { phone: phones.replyCancels });
    }, { tokens: 4 });
  });

  const schedule = async (body: Record<string, unknown>): Promise<string> => {
    const created = await business.nextClient().post('/conversation/scheduled-message', body);
    expect(created.status).toBe(201);
    return created.body.data.uuid as string;
  };
  const rowsOf = async (conversation: string) => (await eventRowsOf(conversation)).map((row) => [row['event_type'], row['data']['scheduled_message_uuid'], row['author']]);

  it('creation, replacement and DELETE: schedule_created rows, and one cancelled event and row per cancellation', async () => {
    const first = await schedule(humanSchedule(conversations.lifecycle, ZONE, business.catalog));
    const second = await schedule(humanSchedule(conversations.lifecycle, ZONE, business.catalog));
    const deleted = await business.nextClient().delete(`/scheduled-messages/${second}`);
    expect(deleted.status).toBe(200);
    // A repeated DELETE answers the cancelled schedule and records nothing more.
    expect((await business.nextClient().delete(`/scheduled-messages/${second}`)).status).toBe(200);

    const events = await settledEvents(conversations.lifecycle, 2);
    expect(events.map((event) => [event.type, event.data])).toEqual([
      ['scheduled_message.cancelled', { scheduled_message_uuid: first }],
      ['scheduled_message.cancelled', { scheduled_message_uuid: second }],
    ]);
    expect(strictlyIncreasing(events)).toBe(true);
    const creator = tokenAuthor(business.tokenUuid);
    const rows = await rowsOf(conversations.lifecycle);
    expect(rows).toHaveLength(4);
    expect(rows).toEqual(
      expect.arrayContaining([
        ['schedule_created', first, creator],
        ['schedule_created', second, expect.objectContaining({ type: 'api_token' })],
        ['schedule_cancelled', first, expect.objectContaining({ type: 'api_token' })],
        ['schedule_cancelled', second, expect.objectContaining({ type: 'api_token' })],
      ]),
    );
    // The cancellations' rows are the events, under the same ids.
    const cancelledRows = (await eventRowsOf(conversations.lifecycle)).filter((row) => row['event_type'] === 'schedule_cancelled');
    expect(cancelledRows.map((row) => row._id).sort()).toEqual(events.map((event) => event._id).sort());
    expect(await outboxOf('scheduled_messages', first)).toEqual([]);
    expect(await outboxOf('scheduled_messages', second)).toEqual([]);
  });

  it('a human schedule fires: schedule_fired at its firing time, then the message it sent and scheduled_message.sent', async () => {
    const uuid = await schedule(humanSchedule(conversations.human, ZONE, business.catalog));
    await makeDueNow(uuid);
    const fired = await waitForSchedule(uuid, isFinal);
    expect(fired.status).toBe('sent');

    const events = await settledEvents(conversations.human, 2);
    expect(typesOf(events)).toEqual(['message.sent', 'scheduled_message.sent']);
    expect(events[0]!.data).toMatchObject({ direction: 'outbound', body: 'See you at 5', status: 'sent' });
    expect(events[1]!.data).toEqual({ scheduled_message_uuid: uuid });
    const rows = await eventRowsOf(conversations.human);
    expect(rows.map((row) => row['event_type'])).toEqual(['schedule_created', 'schedule_fired']);
    expect(rows[1]).toMatchObject({ data: { scheduled_message_uuid: uuid }, author: SYSTEM, created_at: fired.fired_at });
  });

  it("an AI schedule fires: its reason as a note, the AI reply, and scheduled_message.sent; an empty wallet's schedule fails", async () => {
    const uuid = await schedule(aiSchedule(conversations.ai, ZONE));
    const broke = await schedule(aiSchedule(conversations.broke, ZONE));
    await makeDueNow(uuid);
    await makeDueNow(broke);
    expect((await waitForSchedule(uuid, isFinal)).status).toBe('sent');
    expect((await waitForSchedule(broke, isFinal)).status).toBe('failed');

    const events = await settledEvents(conversations.ai, 3);
    expect(typesOf(events)).toEqual(['note.created', 'message.sent', 'scheduled_message.sent']);
    expect(events[0]!.data).toMatchObject({ kind: 'note', note: 'Follow up on the quote', author: { type: 'api_token' } });
    expect(events[1]!.data).toMatchObject({ direction: 'outbound', author: { type: 'ai_employee', uuid: business.catalog.ai.ana, name: 'Ana' } });
    expect(events[2]!.data).toEqual({ scheduled_message_uuid: uuid });
    expect((await eventRowsOf(conversations.ai)).map((row) => row['event_type'])).toEqual(['schedule_created', 'schedule_fired']);
    expect(await outboxOf('timeline_events', events[0]!.data['uuid'])).toEqual([]);

    const failed = await settledEvents(conversations.broke, 2);
    expect(typesOf(failed)).toEqual(['note.created', 'scheduled_message.failed']);
    expect(failed[1]!.data).toEqual({ scheduled_message_uuid: broke, error: { code: 'WALLET_BLOCKED', message: expect.any(String) } });
  });

  it('an owner change that cancels the pending schedule: the cancellation, then the owner and status changes', async () => {
    const uuid = await schedule(aiSchedule(conversations.owner, ZONE));
    const handoff = await business.nextClient().post('/conversation/human', { conversation: { uuid: conversations.owner }, scheduled_message_action: 'cancel' });
    expect(handoff.status).toBe(200);
    const events = await settledEvents(conversations.owner, 3);
    expect(typesOf(events)).toEqual(['scheduled_message.cancelled', 'conversation.assignment_changed', 'conversation.inbox_status_changed']);
    expect(events[0]!.data).toEqual({ scheduled_message_uuid: uuid });
    // The cancellation and the owner change are one request's changes, stamped with one time: the rows' order among them is not defined.
    expect((await rowsOf(conversations.owner)).map(([type]) => type).sort()).toEqual(['assignment_changed', 'inbox_status_changed', 'schedule_cancelled', 'schedule_created']);
  });

  it('a customer reply cancels a cancel_on_customer_reply schedule: message.received, then the cancellation by the system', async () => {
    const uuid = await schedule(humanSchedule(conversations.replyCancels, ZONE, business.catalog, { cancel_on_customer_reply: true }));
    await deliverWebhook(inboundTextWebhook({ ...channelOf(business), from: phones.replyCancels.replace(/\D/g, ''), id: fakeWamid(), text: 'Ya no, gracias' }));
    await waitForSchedule(uuid, (stored) => stored.status === 'cancelled');
    const events: StoredEvent[] = await settledEvents(conversations.replyCancels, 2);
    expect(typesOf(events)).toEqual(['message.received', 'scheduled_message.cancelled']);
    const row = (await eventRowsOf(conversations.replyCancels)).find((candidate) => candidate._id === events[1]!._id);
    expect(row).toMatchObject({ event_type: 'schedule_cancelled', author: SYSTEM, data: { scheduled_message_uuid: uuid } });
    expect(await eventsOfConversation(conversations.replyCancels)).toHaveLength(2);
  });

  it('a tester customer reply cancels it too, answering the cancellation: recorded before the message, sequenced after it as for a real reply', async () => {
    const tester = await business.nextClient().post('/tester/contacts', {});
    const conversation = tester.body.conversation.uuid as string;
    await business.nextClient().post('/tester/inbound', { conversation: { uuid: conversation }, text: 'first' });
    const uuid = await schedule(humanSchedule(conversation, ZONE, business.catalog, { cancel_on_customer_reply: true }));
    const reply = await business.nextClient().post('/tester/inbound', { conversation: { uuid: conversation }, text: 'cancel it' });
    expect(reply.body.cancelled_schedules).toEqual([uuid]);
    const events = await settledEvents(conversation, 5);
    // Sequence follows the changes: the message's update took its number before the cancellation.
    expect(typesOf(events)).toEqual(['conversation.created', 'contact.created', 'message.received', 'message.received', 'scheduled_message.cancelled']);
    const [replyEvent, cancellation] = [events[3]!, events[4]!];
    expect(replyEvent.data).toMatchObject({ body: 'cancel it', direction: 'inbound' });
    expect(cancellation.data).toEqual({ scheduled_message_uuid: uuid });
    // Recorded first, so that the answer could name it.
    expect(cancellation.created_at.getTime()).toBeLessThanOrEqual(replyEvent.created_at.getTime());
  });
});
