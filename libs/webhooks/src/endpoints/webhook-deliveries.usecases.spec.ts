import { businessScope, type DeliveryStatus, type WebhookDeliveryEntity } from '@cmsg/dal';
import { newDelivery, WEBHOOK_RETRY_WINDOW_MS } from '../fan-out/event-fan-out';
import { inMemoryEndpointPorts } from '../testing/in-memory-endpoint-ports';
import { endpointEntity, InMemoryWebhookStore } from '../testing/in-memory-webhook-store';
import { listWebhookDeliveries, redeliverWebhookEvent } from './webhook-deliveries.usecases';

const mine = businessScope('b1');
const theirs = businessScope('b2');

describe('webhook delivery use cases', () => {
  let store: InMemoryWebhookStore;
  let now: Date;
  const ports = () => inMemoryEndpointPorts(store, { now: () => now });
  const at = (minute: number) => new Date(`2026-03-01T09:${String(minute).padStart(2, '0')}:00Z`);

  /** A delivery as the fan-out queued it at `queuedAt`, then brought to `fields` by the dispatcher. */
  const delivered = (eventId: string, endpointId: string, queuedAt: Date, fields: Partial<WebhookDeliveryEntity> = {}, businessId = 'b1') => {
    const delivery = { ...newDelivery({ _id: eventId, business_id: businessId, type: 'note.created' }, { _id: endpointId }, `{"id":"${eventId}"}`, queuedAt), ...fields };
    store.deliveries.push(delivery);
    return delivery;
  };
  const failed = { status: 'failed' as DeliveryStatus, attempts: 9, last_attempt_at: at(30), last_status_code: 500, last_error: 'HTTP 500', next_attempt_at: null, due_at: null, version: 20 };

  beforeEach(() => {
    store = new InMemoryWebhookStore();
    now = new Date('2026-03-01T10:00:00Z');
    store.endpoints.push(endpointEntity({ _id: 'e1' }), endpointEntity({ _id: 'e2' }), endpointEntity({ _id: 'x1', business_id: 'b2' }));
  });

  describe('listWebhookDeliveries', () => {
    const list = (uuid: string, status: DeliveryStatus | null, page: { cursor?: string; limit: number }, scope = mine) =>
      listWebhookDeliveries(ports(), scope, uuid, status, { cursor: page.cursor ?? '', limit: page.limit });

    beforeEach(() => {
      delivered('ev1', 'e1', at(1), { status: 'succeeded', attempts: 1, last_attempt_at: at(1), last_status_code: 200, next_attempt_at: null, due_at: null });
      delivered('ev2', 'e1', at(2), failed);
      delivered('ev3a', 'e1', at(3), { attempts: 2, last_attempt_at: at(4), last_status_code: 503, next_attempt_at: at(40), due_at: at(40) });
      delivered('ev3b', 'e1', at(3));
      delivered('ev9', 'e2', at(5));
      delivered('ev8', 'x1', at(6), {}, 'b2');
    });

    it("lists the endpoint's deliveries newest first (id breaking ties), the next attempt shown only while pending", async () => {
      const page = await list('e1', null, { limit: 10 });
      expect(page.items.map((item) => item.event_id)).toEqual(['ev3b', 'ev3a', 'ev2', 'ev1']);
      expect(page).toMatchObject({ has_more: false, next_cursor: '' });
      expect(page.items[1]).toEqual({
        event_id: 'ev3a',
        type: 'note.created',
        status: 'pending',
        attempts: 2,
        last_attempt_at: '2026-03-01T09:04:00.000Z',
        last_status_code: 503,
        next_attempt_at: '2026-03-01T09:40:00.000Z',
      });
      expect(page.items[2]).toMatchObject({ event_id: 'ev2', status: 'failed', attempts: 9, last_status_code: 500, next_attempt_at: null });
      expect(page.items[3]).toMatchObject({ event_id: 'ev1', status: 'succeeded', next_attempt_at: null });
      expect(page.items.every((item) => !('body' in item))).toBe(true);
    });

    it('lists the deliveries of one status', async () => {
      expect((await list('e1', 'pending', { limit: 10 })).items.map((item) => item.event_id)).toEqual(['ev3b', 'ev3a']);
      expect((await list('e1', 'failed', { limit: 10 })).items.map((item) => item.event_id)).toEqual(['ev2']);
      expect((await list('e2', 'failed', { limit: 10 })).items).toEqual([]);
    });

    it('pages with a cursor until the last page, which has no cursor', async () => {
      const first = await list('e1', null, { limit: 3 });
      expect(first.items.map((item) => item.event_id)).toEqual(['ev3b', 'ev3a', 'ev2']);
      expect(first.has_more).toBe(true);
      const second = await list('e1', null, { limit: 3, cursor: first.next_cursor });
      expect(second.items.map((item) => item.event_id)).toEqual(['ev1']);
      expect(second).toMatchObject({ has_more: false, next_cursor: '' });

      const pending = await list('e1', 'pending', { limit: 1 });
      expect((await list('e1', 'pending', { limit: 1, cursor: pending.next_cursor })).items.map((item) => item.event_id)).toEqual(['ev3a']);
    });

    it('refuses with INVALID_CURSOR a cursor made for another status filter or another endpoint', async () => {
      const pending = await list('e1', 'pending', { limit: 1 });
      await expect(list('e1', null, { limit: 1, cursor: pending.next_cursor })).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
      await expect(list('e1', 'failed', { limit: 1, cursor: pending.next_cursor })).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
      await expect(list('e2', 'pending', { limit: 1, cursor: pending.next_cursor })).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
    });

    it("answers WEBHOOK_ENDPOINT_NOT_FOUND for an unknown endpoint and for another business's", async () => {
      await expect(list('nope', null, { limit: 10 })).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
      await expect(list('x1', null, { limit: 10 })).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
      await expect(list('e1', null, { limit: 10 }, theirs)).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
    });
  });

  describe('redeliverWebhookEvent', () => {
    const redeliver = (uuid: string, eventId: string, scope = mine) => redeliverWebhookEvent(ports(), scope, uuid, eventId);

    it('queues the same body again, due now, with a new run of attempts and 24 h of retries', async () => {
      delivered('ev1', 'e1', at(1), failed);
      const answer = await redeliver('e1', 'ev1');
      expect(answer).toEqual({
        event_id: 'ev1',
        type: 'note.created',
        status: 'pending',
        attempts: 0,
        last_attempt_at: '2026-03-01T09:30:00.000Z',
        last_status_code: 500,
        next_attempt_at: '2026-03-01T10:00:00.000Z',
      });
      expect(store.deliveries).toHaveLength(1);
      expect(store.deliveries[0]).toMatchObject({
        _id: 'ev1:e1',
        body: '{"id":"ev1"}',
        status: 'pending',
        attempts: 0,
        last_error: null,
        next_attempt_at: now,
        due_at: now,
        retry_until: new Date(now.getTime() + WEBHOOK_RETRY_WINDOW_MS),
      });
      expect(await store.deliveryRepository.findDueInAnyBusiness(now, [], 10)).toEqual([{ _id: 'ev1:e1', endpoint_id: 'e1', version: 21 }]);
    });

    it('bumps the version, so a dispatcher still holding the earlier claim cannot record over it', async () => {
      const delivery = delivered('ev1', 'e1', at(1), { attempts: 3, version: 7, claim_id: 'claim-1' });
      await redeliver('e1', 'ev1');
      await store.deliveryRepository.recordOutcomesInAnyBusiness([
        { claimed: { delivery: { ...delivery }, version: 7 }, outcome: { at: now, statusCode: 500, error: 'HTTP 500', nextAttemptAt: null } },
      ]);
      expect(store.deliveries[0]).toMatchObject({ status: 'pending', attempts: 0, version: 8 });
    });

    it('redelivering again keeps one delivery, due now with a fresh run', async () => {
      delivered('ev1', 'e1', at(1), { status: 'succeeded', attempts: 1, next_attempt_at: null, due_at: null });
      await redeliver('e1', 'ev1');
      now = new Date('2026-03-01T10:05:00Z');
      expect(await redeliver('e1', 'ev1')).toMatchObject({ status: 'pending', attempts: 0, next_attempt_at: '2026-03-01T10:05:00.000Z' });
      expect(store.deliveries).toHaveLength(1);
      expect(store.deliveries[0]).toMatchObject({ due_at: now, retry_until: new Date(now.getTime() + WEBHOOK_RETRY_WINDOW_MS) });
    });

    it('answers EVENT_NOT_FOUND for an event the endpoint never had, even one another endpoint had', async () => {
      delivered('ev9', 'e2', at(1), failed);
      await expect(redeliver('e1', 'nope')).rejects.toMatchObject({ code: 'EVENT_NOT_FOUND' });
      await expect(redeliver('e1', 'ev9')).rejects.toMatchObject({ code: 'EVENT_NOT_FOUND' });
      expect(store.deliveries[0]).toMatchObject({ status: 'failed', attempts: 9 });
    });

    it("answers WEBHOOK_ENDPOINT_NOT_FOUND for an unknown endpoint and for another business's, whose delivery stays as it was", async () => {
      const before = { ...delivered('ev8', 'x1', at(1), failed, 'b2') };
      await expect(redeliver('nope', 'ev8')).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
      await expect(redeliver('x1', 'ev8')).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
      expect(store.deliveries[0]).toEqual(before);
    });
  });
});
