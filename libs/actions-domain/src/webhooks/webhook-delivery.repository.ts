import { randomUUID } from 'node:crypto';
import { type BusinessScope, WebhookModel, scopedFilter } from '@cmsg/dal';
import { type WebhookDeliveryEntity, WebhookDeliveryModel } from './webhook-delivery.model';

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

/** Webhook endpoints of a business (WebhookModel, seeded or added by the admin CLI). */
export class WebhookEndpointRepository {
  async list(scope: BusinessScope): Promise<WebhookEndpoint[]> {
    // Filtered here rather than by `events` in the query: a business has a handful of endpoints.
    const endpoints = await WebhookModel.find(scopedFilter(scope, {})).lean();
    return endpoints.map((endpoint) => ({ id: endpoint._id, url: endpoint.url, secret: endpoint.secret, events: [...endpoint.events] }));
  }

  async find(scope: BusinessScope, id: string): Promise<WebhookEndpoint | null> {
    const endpoint = await WebhookModel.findOne(scopedFilter(scope, { _id: id })).lean();
    return endpoint ? { id: endpoint._id, url: endpoint.url, secret: endpoint.secret, events: [...endpoint.events] } : null;
  }
}

/**
 * The delivery queue. Dispatchers in any number of processes lease one due delivery at a time
 * with a single findOneAndUpdate (FerretDB: no projection), so two never send the same attempt,
 * and a dispatcher that dies mid-attempt only holds it until its lease ends (at-least-once).
 */
export class WebhookDeliveryRepository {
  /** Inserts unless it exists (same event, same endpoint). */
  async enqueue(delivery: WebhookDeliveryEntity): Promise<void> {
    const { _id, business_id, ...rest } = delivery;
    await WebhookDeliveryModel.updateOne({ _id, business_id }, { $setOnInsert: rest }, { upsert: true });
  }

  async leaseDue(now: Date, leaseMs: number): Promise<LeasedDelivery | null> {
    const leaseId = randomUUID();
    const delivery = await WebhookDeliveryModel.findOneAndUpdate(
      { status: 'pending', next_attempt_at: { $lte: now }, lease_until: { $lt: now } },
      { $set: { lease_until: new Date(now.getTime() + leaseMs), lease_id: leaseId } },
      { sort: { next_attempt_at: 1 }, new: true },
    ).lean<WebhookDeliveryEntity>();
    return delivery ? { delivery, leaseId } : null;
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
