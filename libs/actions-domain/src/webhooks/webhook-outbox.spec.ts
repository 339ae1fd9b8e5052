import type { WebhookDeliveryEntity, WebhookEndpoint } from '@cmsg/dal';
import { deterministicUuid, type WebhookEvent } from './webhook-events';
import { WebhookOutbox } from './webhook-outbox';

describe('WebhookOutbox', () => {
  const event: WebhookEvent = { id: 'e1', type: 'action.failed', created_at: '2026-01-01T00:00:00.000Z', data: { x: 1 } };
  let endpoints: WebhookEndpoint[];
  let lookups: number;
  let enqueued: WebhookDeliveryEntity[];
  let outbox: WebhookOutbox;

  beforeEach(() => {
    endpoints = [
      { id: 'w1', url: 'http://127.0.0.1:1/a', secret: 's1', events: ['action.failed', 'action_group.finished'] },
      { id: 'w2', url: 'http://127.0.0.1:1/b', secret: 's2', events: ['action_group.finished'] },
    ];
    lookups = 0;
    enqueued = [];
    outbox = new WebhookOutbox(
      { list: async () => (lookups++, endpoints) },
      { enqueue: async (delivery) => void enqueued.push(delivery) },
      1000,
    );
  });

  it('queues one pending delivery per subscribed endpoint, with a deterministic id and the exact body', async () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(await outbox.enqueue({ business_id: 'b1' }, event, now)).toBe(1);
    expect(enqueued).toEqual([
      expect.objectContaining({
        _id: deterministicUuid('e1', 'w1'),
        business_id: 'b1',
        webhook_id: 'w1',
        event_id: 'e1',
        body: JSON.stringify(event),
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
      }),
    ]);
  });

  it('reuses the endpoint list for a while', async () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    await outbox.enqueue({ business_id: 'b1' }, event, new Date(now));
    await outbox.enqueue({ business_id: 'b1' }, event, new Date(now + 999));
    expect(lookups).toBe(1);
    await outbox.enqueue({ business_id: 'b1' }, event, new Date(now + 1000));
    expect(lookups).toBe(2);
  });
});
