import { fakeWamid, inboundTextWebhook, uniquePhone } from '@cmsg/testing';
import { channelOf, deliverWebhook, eventually, inboundMessageByProviderId } from '../inbound/inbound-fixtures';
import { type SchedulingBusiness, createSchedulingBusiness, humanSchedule, openConversation, pendingScheduleOf, storedSchedule, waitForSchedule } from './scheduling-fixtures';

/*
 * cancel_on_customer_reply with real customer messages: a signed Cloud API webhook to POST
 * /webhooks/chat -> chat-inbound -> conversations service (message recorded, event
 * conversation.customer_message_received on conversation-events) -> the scheduler's consumer.
 */
const ZONE = 'America/Mexico_City';

describe('cancel_on_customer_reply: a real inbound customer message', () => {
  let business: SchedulingBusiness;
  const phones = { flagged: uniquePhone(), unflagged: uniquePhone() };
  const conversations = { flagged: '', unflagged: '' };
  const digits = (phone: string) => phone.replace(/\D/g, '');

  beforeAll(async () => {
    business = await createSchedulingBusiness((seed) => {
      conversations.flagged = openConversation(seed, {}, { phone: phones.flagged });
      conversations.unflagged = openConversation(seed, {}, { phone: phones.unflagged });
    });
  });

  async function customerWrites(phone: string, text: string): Promise<void> {
    const wamid = fakeWamid();
    const response = await deliverWebhook(inboundTextWebhook({ ...channelOf(business), from: digits(phone), id: wamid, text }));
    expect(response.status).toBe(200);
    await eventually(() => inboundMessageByProviderId(business.businessId, wamid), (message) => message?.ingest?.conversation_applied === true);
  }

  it('cancels the flagged schedule (reason customer_reply) and releases its conversation; an unflagged one stays pending', async () => {
    const flagged = await business.api.post('/conversation/scheduled-message', humanSchedule(conversations.flagged, ZONE, business.catalog, { cancel_on_customer_reply: true }));
    const unflagged = await business.api.post('/conversation/scheduled-message', humanSchedule(conversations.unflagged, ZONE, business.catalog));
    expect([flagged.status, unflagged.status]).toEqual([201, 201]);

    // The unflagged conversation's customer writes first, so its event was handled by the time the flagged one's is.
    await customerWrites(phones.unflagged, 'Sigo aquí');
    await customerWrites(phones.flagged, 'Ya no hace falta, gracias');

    const cancelled = await waitForSchedule(flagged.body.data.uuid, (schedule) => schedule.status === 'cancelled', 30_000);
    expect(cancelled.history.at(-1)).toMatchObject({ event: 'cancelled', status: 'cancelled', reason: 'customer_reply' });
    expect(await pendingScheduleOf(conversations.flagged)).toBeNull();
    const view = await business.api.get(`/scheduled-messages/${flagged.body.data.uuid}`);
    expect(view.body).toMatchObject({ status: 'cancelled', cancel_on_customer_reply: true });

    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect((await storedSchedule(unflagged.body.data.uuid))!.status).toBe('pending');
    expect(await pendingScheduleOf(conversations.unflagged)).toBe(unflagged.body.data.uuid);
  });

  it('a flagged schedule created after the customer wrote is not cancelled by that message', async () => {
    await customerWrites(phones.unflagged, 'Una pregunta más');
    const later = await business.api.post('/conversation/scheduled-message', humanSchedule(conversations.unflagged, ZONE, business.catalog, { cancel_on_customer_reply: true }));
    expect(later.status).toBe(201);
    // A reply after it does cancel it (and shows the earlier event was handled before, not lost).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect((await storedSchedule(later.body.data.uuid))!.status).toBe('pending');
    await customerWrites(phones.unflagged, 'Listo');
    await waitForSchedule(later.body.data.uuid, (schedule) => schedule.status === 'cancelled', 30_000);
  });
});
