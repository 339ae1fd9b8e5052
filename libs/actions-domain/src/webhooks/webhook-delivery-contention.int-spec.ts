import { randomBytes, randomUUID } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebhookDeliveryEntity, WebhookDeliveryRepository } from '@cmsg/dal';
import mongoose from 'mongoose';
import { systemClock } from '../ports';
import { silentLogger } from '../testing/silent-logger';
import { WebhookDispatcher, type WebhookTransport } from './webhook-dispatcher';
import { DEFAULT_WEBHOOK_RETRY_POLICY } from './webhook-retry';

const DISPATCHERS = 50;
const DELIVERIES = 100;

/**
 * 50 dispatchers (as in 50 runner replicas) claim the same due deliveries against the real local
 * MongoDB and POST them to a local receiver that answers 500 to every delivery's first attempt: each
 * delivery is attempted by one dispatcher at a time and delivered exactly once.
 */
describe('webhook delivery claims under contention', () => {
  const repository = new WebhookDeliveryRepository();
  const endpoint = { id: randomUUID(), url: '', secret: 'whsec_contention', events: ['action.failed'] };
  let receiver: Server;
  const attempts = new Map<string, number>();
  const delivered = new Map<string, number>();
  const inFlight = new Set<string>();
  let overlapping = 0;

  const transport: WebhookTransport = {
    post: (url, body, headers, timeoutMs) =>
      fetch(url, { method: 'POST', body, headers, signal: AbortSignal.timeout(timeoutMs) }).then((response) => response.status),
  };

  beforeAll(async () => {
    await mongoose.connect(process.env['MONGODB_URI'] ?? 'mongodb://127.0.0.1:27118/', { dbName: `actions_webhooks_it_${randomBytes(4).toString('hex')}`, serverSelectionTimeoutMS: 10_000 });
    await repository.ensureIndexes();
    receiver = createServer((request, response) => {
      const id = String(request.headers['x-webhook-id']);
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
    endpoint.url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });

  afterAll(async () => {
    await new Promise((resolve) => receiver.close(resolve));
    await mongoose.connection.dropDatabase();
    await mongoose.disconnect();
  });

  it('delivers each of 100 due deliveries exactly once with 50 dispatchers claiming them at once', async () => {
    const now = new Date();
    const eventIds = Array.from({ length: DELIVERIES }, () => randomUUID());
    for (const eventId of eventIds) await repository.enqueue(delivery(eventId, now));
    const dispatchers = Array.from(
      { length: DISPATCHERS },
      () =>
        new WebhookDispatcher(repository, { find: async () => endpoint } as never, transport, systemClock, silentLogger, {
          // Retries due at once, so the second attempts are claimed in the same run.
          retry: { ...DEFAULT_WEBHOOK_RETRY_POLICY, baseDelayMs: 1 },
          concurrency: 2,
          idleMs: 20,
          attemptTimeoutMs: 10_000,
        }),
    );
    dispatchers.forEach((dispatcher) => dispatcher.start());
    const deadline = Date.now() + 45_000;
    while (delivered.size < DELIVERIES && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    await Promise.all(dispatchers.map((dispatcher) => dispatcher.stop()));

    const stored = await mongoose.connection.collection<WebhookDeliveryEntity>('webhook_deliveries').find({}).toArray();
    const lost = eventIds.filter((id) => !delivered.has(id)).length;
    const twice = [...delivered.values()].filter((count) => count > 1).length + [...attempts.values()].filter((count) => count > 2).length;
    console.log(`[contention] webhook deliveries claimed by ${DISPATCHERS} dispatchers: writers ${DISPATCHERS}, deliveries ${DELIVERIES}, lost ${lost}, twice ${twice}, overlapping attempts ${overlapping}`);
    expect(lost).toBe(0);
    expect(twice).toBe(0);
    expect(overlapping).toBe(0);
    expect(stored).toHaveLength(DELIVERIES);
    expect(stored.every((record) => record.status === 'delivered' && record.attempts === 2 && record.last_status === 204)).toBe(true);
  });

  function delivery(eventId: string, now: Date): WebhookDeliveryEntity {
    return {
      _id: randomUUID(),
      business_id: randomUUID(),
      webhook_id: endpoint.id,
      url: endpoint.url,
      event_id: eventId,
      event_type: 'action.failed',
      body: JSON.stringify({ id: eventId, type: 'action.failed' }),
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      lease_until: new Date(0),
      lease_id: null,
      last_status: null,
      last_error: null,
      created_at: now,
      delivered_at: null,
    };
  }
});
