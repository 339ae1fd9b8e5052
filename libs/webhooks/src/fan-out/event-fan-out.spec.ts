import { endpointEntity, InMemoryWebhookStore } from '../testing/in-memory-webhook-store';
import { CachedEndpointDirectory } from './cached-endpoint-directory';
import { eventEnvelope } from './event-envelope';
import { WebhookFanOut } from './event-fan-out';

describe('WebhookFanOut', () => {
  const now = new Date('2026-01-01T00:00:05Z');
  const event = {
    _id: '0b7c1a4e-0000-4000-8000-000000000001',
    business_id: 'b1',
    business_slug: 'acme',
    conversation_id: 'c1',
    sequence: 7,
    type: 'message.received',
    data: { uuid: 'm1' },
    created_at: new Date('2026-01-01T00:00:00Z'),
  };
  let store: InMemoryWebhookStore;
  let wakes: number;
  let fanOut: WebhookFanOut;

  beforeEach(() => {
    store = new InMemoryWebhookStore();
    store.endpoints.push(
      endpointEntity({ _id: 'all', events: ['*'] }),
      endpointEntity({ _id: 'messages', events: ['message.received', 'message.sent'] }),
      endpointEntity({ _id: 'notes', events: ['note.created'] }),
      endpointEntity({ _id: 'disabled', events: ['*'], enabled: false }),
      endpointEntity({ _id: 'other-business', business_id: 'b2', events: ['*'] }),
    );
    wakes = 0;
    fanOut = new WebhookFanOut({
      directory: new CachedEndpointDirectory(store.endpointRepository, store.listVersions),
      endpoints: store.endpointRepository as never,
      deliveries: store.deliveryRepository,
      clock: { now: () => now },
      onQueued: () => (wakes += 1),
    });
  });

  it('queues one delivery per enabled endpoint of the business subscribed to the type or to *, with the exact envelope bytes', async () => {
    expect(await fanOut.fanOut(event)).toBe(2);
    expect(store.deliveries.map((delivery) => delivery.endpoint_id).sort()).toEqual(['all', 'messages']);
    const [delivery] = store.deliveries;
    expect(delivery).toMatchObject({
      _id: `${event._id}:all`,
      business_id: 'b1',
      event_id: event._id,
      event_type: 'message.received',
      status: 'pending',
      attempts: 0,
      due_at: now,
      next_attempt_at: now,
      retry_until: new Date(now.getTime() + 24 * 3_600_000),
    });
    expect(delivery!.body).toBe(
      '{"id":"0b7c1a4e-0000-4000-8000-000000000001","type":"message.received","created_at":"2026-01-01T00:00:00.000Z","business":{"slug":"acme"},"conversation":{"uuid":"c1"},"sequence":7,"data":{"uuid":"m1"}}',
    );
    expect(JSON.parse(delivery!.body)).toEqual(eventEnvelope(event));
    expect(wakes).toBe(1);
  });

  it('is idempotent: the same event again queues nothing', async () => {
    await fanOut.fanOut(event);
    expect(await fanOut.fanOut(event)).toBe(0);
    expect(store.deliveries).toHaveLength(2);
    expect(wakes).toBe(1);
  });

  it('fans many events out with one lookup per business, the same deliveries as one by one', async () => {
    const second = { ...event, _id: 'e2', type: 'note.created' };
    const third = { ...event, _id: 'e3', business_id: 'b2' };
    expect(await fanOut.fanOutMany([event, second, third, { ...event, _id: 'p', type: 'ping' }])).toBe(5);
    expect(store.deliveries.map((delivery) => delivery._id).sort()).toEqual([`${event._id}:all`, `${event._id}:messages`, 'e2:all', 'e2:notes', 'e3:other-business']);
    expect(await fanOut.fanOutMany([event])).toBe(0);
    expect(store.listReads).toBe(2);
  });

  it('follows every change of the endpoint list made through the repository, and reads it once per change', async () => {
    await fanOut.fanOut(event);
    await fanOut.fanOut({ ...event, _id: 'e2' });
    expect(store.listReads).toBe(1);
    await store.endpointRepository.update({ businessId: 'b1' }, 'notes', { events: ['*'], updated_at: now });
    await store.endpointRepository.delete({ businessId: 'b1' }, 'all');
    expect(await fanOut.fanOut({ ...event, _id: 'e3' })).toBe(2);
    expect(store.deliveries.filter((delivery) => delivery.event_id === 'e3').map((delivery) => delivery.endpoint_id).sort()).toEqual(['messages', 'notes']);
    expect(store.listReads).toBe(2);
  });

  it('sends a ping only to the endpoint named, whatever it subscribes to', async () => {
    const ping = { ...event, _id: 'p1', type: 'ping', conversation_id: null, sequence: 0, data: {} };
    expect(await fanOut.fanOut(ping)).toBe(0);
    expect(await fanOut.fanOut(ping, { endpointId: 'notes' })).toBe(1);
    expect(store.deliveries.map((delivery) => delivery.endpoint_id)).toEqual(['notes']);
    expect(JSON.parse(store.deliveries[0]!.body)).toMatchObject({ type: 'ping', conversation: null, sequence: 0, data: {} });
    expect(await fanOut.fanOut(ping, { endpointId: 'other-business' })).toBe(0);
  });
});
