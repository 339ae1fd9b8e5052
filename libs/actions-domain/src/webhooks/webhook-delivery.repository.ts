import { type BusinessScope, WebhookRepository, isDuplicateKeyError } from '@cmsg/dal';
import { WebhookDeliveryClaimModel, type WebhookDeliveryEntity, WebhookDeliveryModel } from './webhook-delivery.model';

export interface WebhookEndpoint {
  id: string;
  url: string;
  secret: string;
  events: string[];
}

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

const webhooks = new WebhookRepository();

/** Webhook endpoints of a business (seeded or added by the admin CLI). */
export class WebhookEndpointRepository {
  async list(scope: BusinessScope): Promise<WebhookEndpoint[]> {
    // Filtered here rather than by `events` in the query: a business has a handful of endpoints.
    const endpoints = await webhooks.listOfBusiness(scope);
    return endpoints.map((endpoint) => ({ id: endpoint._id, url: endpoint.url, secret: endpoint.secret, events: [...endpoint.events] }));
  }

  async find(scope: BusinessScope, id: string): Promise<WebhookEndpoint | null> {
    const endpoint = await webhooks.findById(scope, id);
    return endpoint ? { id: endpoint._id, url: endpoint.url, secret: endpoint.secret, events: [...endpoint.events] } : null;
  }
}

/** Extra due deliveries read per lease pass, so a dispatcher that loses a claim can take the next. */
const LEASE_CANDIDATE_MARGIN = 10;

/**
 * The delivery queue. Dispatchers in any number of processes lease a due delivery by inserting a
 * claim keyed by what they read (delivery, attempt number, lease version): exactly one insert of
 * that key succeeds, so two dispatchers never send the same attempt. A dispatcher that dies
 * mid-attempt holds the delivery until its lease ends; the next claim has a new key (at-least-once).
 * The lease query is not scoped to a business: the dispatcher serves every tenant.
 */
export class WebhookDeliveryRepository {
  /** Inserts unless it exists (same event, same endpoint). */
  async enqueue(delivery: WebhookDeliveryEntity): Promise<void> {
    const { _id, business_id, ...rest } = delivery;
    try {
      await WebhookDeliveryModel.updateOne({ _id, business_id }, { $setOnInsert: rest }, { upsert: true });
    } catch (error) {
      // Enqueued concurrently by another run of the same group: it exists, which is all we want.
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  /** Up to `max` due deliveries, each claimed for this dispatcher alone until now + leaseMs. */
  async leaseDue(now: Date, leaseMs: number, max = 1): Promise<LeasedDelivery[]> {
    const candidates = await WebhookDeliveryModel.find({ status: 'pending', next_attempt_at: { $lte: now }, lease_until: { $lt: now } })
      .sort({ next_attempt_at: 1 })
      .limit(max + LEASE_CANDIDATE_MARGIN)
      .lean<WebhookDeliveryEntity[]>();
    const leased: LeasedDelivery[] = [];
    for (const candidate of candidates) {
      if (leased.length >= max) break;
      const leaseId = `${candidate._id}:${candidate.attempts}:${new Date(candidate.lease_until).getTime()}`;
      if (!(await this.claim(leaseId, candidate._id, now))) continue;
      const leaseUntil = new Date(now.getTime() + leaseMs);
      await WebhookDeliveryModel.updateOne({ _id: candidate._id }, { $set: { lease_until: leaseUntil, lease_id: leaseId } });
      leased.push({ delivery: { ...candidate, lease_until: leaseUntil, lease_id: leaseId }, leaseId });
    }
    return leased;
  }

  /** Claims older than this are past any lease and any stale read: the sweeper removes them. */
  async sweepClaims(olderThan: Date): Promise<number> {
    const result = await WebhookDeliveryClaimModel.deleteMany({ created_at: { $lt: olderThan } });
    return result.deletedCount;
  }

  private async claim(claimId: string, deliveryId: string, now: Date): Promise<boolean> {
    try {
      await WebhookDeliveryClaimModel.create({ _id: claimId, delivery_id: deliveryId, created_at: now });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  async markDelivered(leased: LeasedDelivery, at: Date, httpStatus: number): Promise<void> {
    await WebhookDeliveryModel.updateOne(
      { _id: leased.delivery._id, lease_id: leased.leaseId },
      { $set: { status: 'delivered', delivered_at: at, attempts: leased.delivery.attempts + 1, last_status: httpStatus, last_error: null, lease_until: new Date(0) } },
    );
  }

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
