import { randomUUID } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InProcessWebhookEndpointListVersions, type WebhookDeliveryEntity, WebhookDeliveryRepository, WebhookEndpointRepository, businessScope } from '@cmsg/dal';
import { connectToOwnDatabase, dropConnectedDatabase, storedCollection } from '@cmsg/testing-database';
import { newDelivery } from '../fan-out/event-fan-out';
import { systemClock } from '../ports';
import { silentLogger } from '../testing/silent-logger';
import { DEFAULT_WEBHOOK_RETRY_POLICY } from './retry-schedule';
import { WebhookDispatcher } from './webhook-dispatcher';
import { HttpWebhookTransport } from './webhook-transport';

const DISPATCHERS = 50;
const DELIVERIES = 100;

/**
 * 50 dispatchers (as in 50 runner replicas) claim the same due deliveries against the real local
 * MongoDB and POST them to a local receiver that answers 500 to every delivery's first attempt: each
 * delivery is attempted by one dispatcher at a time and delivered exactly once.
 */
describe('webhook delivery claims under contention', () => {
  const deliveries = new WebhookDeliveryRepository();
  // This file's database is its own: no other process keeps its endpoint lists.
  const endpoints = new WebhookEndpointRepository(new InProcessWebhookEndpointListVersions());
  const scope = businessScope(randomUUID());
  let endpointId: string;
  let receiver: Server;
  const attempts = new Map<string, number>();
  const delivered = new Map<string, number>();
  const inFlight = new Set<string>();
  let overlapping = 0;

  beforeAll(async () => {
    await connectToOwnDatabase('webhooks_contention_it');
    await deliveries.ensureIndexes();
    await endpoints.ensureIndexes();
    receiver = createServer((request, response) => {
      const id = String(request.headers['webhook-id']);
      if (inFlight.has(id)) overlapping += 1;
      inFlight.add(id);
      request.resume();
      request.on('end', () => {
        const attempt = (attempts.get(id) ?? 0) + 1;
        attempts.set(id, attempt);
        // Held a moment so that a second claimant of the same attempt would overlap it.
        setTimeout(() => {
          inFlight.delete(id);
          if (attempt > 1) delivered.set(id, (delivered.get(id) ?? 0) + 1);
          response.writeHead(attempt > 1 ? 204 : 500).end();
        }, 5);
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const now = new Date();
    const endpoint = await endpoints.insertInFreeSlot(scope, {
      _id: randomUUID(),
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
      description: null,
      events: ['*'],
      enabled: true,
      secrets: [{ secret: 'whsec_Y29udGVudGlvbg==', expires_at: null }],
      failing_since: null,
      created_at: now,
      updated_at: now,
    });
    if (endpoint === 'limit_reached') throw new Error('unexpected');
    endpointId = endpoint._id;
  });

  afterAll(async () => {
    await new Promise((resolve) => receiver.close(resolve));
    await dropConnectedDatabase();
  });

  it('delivers each of 100 due deliveries exactly once with 50 dispatchers claiming them at once', async () => {
    const now = new Date();
    const eventIds = Array.from({ length: DELIVERIES }, () => randomUUID());
    await deliveries.enqueueMany(eventIds.map((eventId) => newDelivery({ _id: eventId, business_id: scope.businessId, type: 'action.failed' }, { _id: endpointId }, JSON.stringify({ id: eventId }), now)));
    const transport = new HttpWebhookTransport({ allowPrivate: true });
    const dispatchers = Array.from(
      { length: DISPATCHERS },
      () =>
        new WebhookDispatcher(
          { deliveries, endpoints, transport, clock: systemClock, logger: silentLogger },
          // Retries due at once, so the second attempts are claimed in the same run.
          { retry: { ...DEFAULT_WEBHOOK_RETRY_POLICY, baseDelayMs: 1 }, concurrency: 2, endpointConcurrency: 2, idleMs: 20, attemptTimeoutMs: 10_000, disableAfterMs: 3_600_000 },
        ),
    );
    dispatchers.forEach((dispatcher) => dispatcher.start());
    const deadline = Date.now() + 45_000;
    while (delivered.size < DELIVERIES && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    await Promise.all(dispatchers.map((dispatcher) => dispatcher.stop()));
    transport.destroy();

    const stored = await storedCollection<WebhookDeliveryEntity>('webhook_deliveries').find({}).toArray();
    const lost = eventIds.filter((id) => !delivered.has(id)).length;
    const twice = [...delivered.values()].filter((count) => count > 1).length + [...attempts.values()].filter((count) => count > 2).length;
    console.log(`[contention] webhook deliveries claimed by ${DISPATCHERS} dispatchers: writers ${DISPATCHERS}, deliveries ${DELIVERIES}, lost ${lost}, twice ${twice}, overlapping attempts ${overlapping}`);
    expect(lost).toBe(0);
    expect(twice).toBe(0);
    expect(overlapping).toBe(0);
    expect(stored).toHaveLength(DELIVERIES);
    // Named one by one, so that a failure says which state a delivery was left in. The receiver saw
    // each delivery exactly twice (the 500, then the 204); the dispatcher may count more attempts
    // than that when a connection failed before its request reached the receiver (a loaded
    // machine resetting a kept-alive socket), which it retries like any failed attempt.
    const unfinished = stored
      .filter((record) => !(record.status === 'succeeded' && record.last_status_code === 204 && attempts.get(record.event_id) === 2 && record.attempts >= 2))
      .map(({ event_id, status, attempts: tried, last_status_code, last_error, version, claim_id }) => ({ event_id, status, attempts: tried, last_status_code, last_error, version, claim_id, received: attempts.get(event_id) ?? 0 }));
    expect(unfinished).toEqual([]);
  });
});
