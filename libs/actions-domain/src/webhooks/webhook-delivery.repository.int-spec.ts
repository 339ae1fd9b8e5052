import { randomBytes } from 'node:crypto';
import mongoose from 'mongoose';
import { ensureActionsIndexes } from '../actions-indexes';
import type { WebhookDeliveryEntity } from './webhook-delivery.model';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';

/** Against the real FerretDB: its findOneAndUpdate is not an atomic compare-and-set, so leasing must not rely on it. */
describe('WebhookDeliveryRepository on FerretDB', () => {
  const dbName = `actions_domain_it_${randomBytes(4).toString('hex')}`;
  const repository = new WebhookDeliveryRepository();
  const now = new Date();

  const delivery = (id: string): WebhookDeliveryEntity => ({
    _id: id,
    business_id: 'b1',
    webhook_id: 'w1',
    url: 'http://127.0.0.1:1/hook',
    event_id: 'e1',
    event_type: 'action.failed',
    body: '{}',
    status: 'pending',
    attempts: 0,
    next_attempt_at: new Date(now.getTime() - 1000),
    lease_until: new Date(0),
    lease_id: null,
    last_status: null,
    last_error: null,
    created_at: now,
    delivered_at: null,
  });

  beforeAll(async () => {
    await mongoose.connect(process.env['MONGODB_URI'] ?? 'mongodb://127.0.0.1:27117/', { dbName, serverSelectionTimeoutMS: 10_000 });
    await ensureActionsIndexes();
  });

  afterAll(async () => {
    await mongoose.connection.dropDatabase();
    await mongoose.disconnect();
  });

  it('leases one due delivery to exactly one of many concurrent dispatchers', async () => {
    for (let round = 0; round < 10; round += 1) {
      await repository.enqueue(delivery(`d${round}`));
      const leases = await Promise.all(Array.from({ length: 8 }, () => repository.leaseDue(now, 30_000, 4)));
      const won = leases.flat();
      expect(won).toHaveLength(1);
      await repository.markDelivered(won[0]!, now, 200);
    }
  });

  it('enqueues an event once, whatever the concurrency', async () => {
    await Promise.all(Array.from({ length: 8 }, () => repository.enqueue(delivery('same'))));
    expect(await mongoose.connection.collection('webhook_deliveries').countDocuments({ _id: 'same' as never })).toBe(1);
    await repository.markDelivered((await repository.leaseDue(now, 30_000))[0]!, now, 200);
  });

  it('leases a failed delivery again once it is due, and an expired lease again', async () => {
    await repository.enqueue(delivery('retry'));
    const [first] = await repository.leaseDue(now, 30_000);
    expect(first!.delivery._id).toBe('retry');
    expect(await repository.leaseDue(now, 30_000)).toEqual([]);
    await repository.markFailed(first!, { attempts: 1, nextAttemptAt: now, httpStatus: 500, error: 'HTTP 500' });
    const [second] = await repository.leaseDue(new Date(now.getTime() + 1), 1);
    expect(second!.delivery.attempts).toBe(1);
    // The dispatcher holding it died: after its lease the delivery is leased again.
    const [third] = await repository.leaseDue(new Date(now.getTime() + 10), 30_000);
    expect(third?.delivery._id).toBe('retry');
    expect(third?.leaseId).not.toBe(second!.leaseId);
  });
});
