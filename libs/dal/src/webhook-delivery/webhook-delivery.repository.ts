import { randomUUID } from 'node:crypto';
import { isDuplicateKeyError } from '../shared/duplicate-key';
import type { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookDeliveryModel } from './webhook-delivery.schema';

/** A delivery claimed by one dispatcher: only it may record the attempt's outcome. */
export interface LeasedDelivery {
  delivery: WebhookDeliveryEntity;
  leaseId: string;
}

export interface DeliveryFailure {
  attempts: number;
  /** null: give up (abandoned). */
  nextAttemptAt: Date | null;
  httpStatus: number | null;
  error: string;
}

/**
 * The webhook delivery queue (collection webhook_deliveries). A dispatcher claims a due delivery
 * with one `findOneAndUpdate` that sets a lease: exactly one claimant gets each attempt. One that
 * dies mid-attempt holds it until the lease ends; then the next claim takes it (at least once).
 * The claim crosses businesses on purpose: the dispatcher serves every tenant.
 */
export class WebhookDeliveryRepository {
  async ensureIndexes(): Promise<void> {
    await WebhookDeliveryModel.createIndexes();
  }

  /** Inserts unless it exists (same event, same endpoint: a re-run group). */
  /** Deliveries not yet delivered nor abandoned, in every business (the cmsg_webhook_backlog gauge). Index { status, next_attempt_at, lease_until }. */
  countPendingOfAnyBusiness(): Promise<number> {
    return WebhookDeliveryModel.countDocuments({ status: 'pending' }).exec();
  }

  async enqueue(delivery: WebhookDeliveryEntity): Promise<void> {
    try {
      await WebhookDeliveryModel.create(delivery);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  /** Up to `max` due deliveries of any business, each leased to this caller alone until now + leaseMs. */
  async claimDueOfAnyBusiness(now: Date, leaseMs: number, max = 1): Promise<LeasedDelivery[]> {
    const leased: LeasedDelivery[] = [];
    while (leased.length < max) {
      const leaseId = randomUUID();
      const delivery = await WebhookDeliveryModel.findOneAndUpdate(
        // Index { status, next_attempt_at }.
        { status: 'pending', next_attempt_at: { $lte: now }, lease_until: { $lt: now } },
        { $set: { lease_until: new Date(now.getTime() + leaseMs), lease_id: leaseId } },
        { sort: { next_attempt_at: 1 }, returnDocument: 'after' },
      ).lean<WebhookDeliveryEntity>();
      if (!delivery) break;
      leased.push({ delivery, leaseId });
    }
    return leased;
  }

  /** Index { _id, lease_id }: a claim whose lease was taken over records nothing. */
  async markDelivered(leased: LeasedDelivery, at: Date, httpStatus: number): Promise<void> {
    await WebhookDeliveryModel.updateOne(
      { _id: leased.delivery._id, lease_id: leased.leaseId },
      { $set: { status: 'delivered', delivered_at: at, attempts: leased.delivery.attempts + 1, last_status: httpStatus, last_error: null, lease_until: new Date(0) } },
    );
  }

  /** Index { _id, lease_id }, as markDelivered. */
  async markFailed(leased: LeasedDelivery, failure: DeliveryFailure): Promise<void> {
    await WebhookDeliveryModel.updateOne(
      { _id: leased.delivery._id, lease_id: leased.leaseId },
      {
        $set: {
          status: failure.nextAttemptAt ? 'pending' : 'abandoned',
          attempts: failure.attempts,
          ...(failure.nextAttemptAt ? { next_attempt_at: failure.nextAttemptAt } : {}),
          last_status: failure.httpStatus,
          last_error: failure.error.slice(0, 500),
          lease_until: new Date(0),
        },
      },
    );
  }
}
