import type { AnyBulkWriteOperation } from 'mongoose';
import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { insertManyIfAbsent } from '../shared/duplicate-key';
import type { DeliveryStatus, WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookDeliveryModel } from './webhook-delivery.schema';

/** A due delivery as the due query reads it: enough to choose and to claim. */
export interface DueDelivery {
  _id: string;
  endpoint_id: string;
  version: number;
}

/** A delivery this dispatcher claimed: only a write at `version` records its outcome. */
export interface ClaimedDelivery {
  delivery: WebhookDeliveryEntity;
  version: number;
}

export interface AttemptOutcome {
  at: Date;
  statusCode: number | null;
  /** null on success. */
  error: string | null;
  /** Failure only: when to try again, or null to give up (`failed`). */
  nextAttemptAt: Date | null;
}

/** Where a page of deliveries starts: before this (created_at, _id). */
export interface DeliveryPagePosition {
  createdAt: Date;
  id: string;
}

function outcomeUpdate(outcome: AttemptOutcome) {
  const status: DeliveryStatus = outcome.error === null ? 'succeeded' : outcome.nextAttemptAt ? 'pending' : 'failed';
  const next = status === 'pending' ? outcome.nextAttemptAt : null;
  return {
    $set: {
      status,
      last_attempt_at: outcome.at,
      last_status_code: outcome.statusCode,
      last_error: outcome.error?.slice(0, 500) ?? null,
      next_attempt_at: next,
      due_at: next,
    },
    $inc: { attempts: 1, version: 1 },
  };
}

export function deliveryId(eventId: string, endpointId: string): string {
  return `${eventId}:${endpointId}`;
}

/**
 * The webhook delivery queue and log (collection webhook_deliveries). Claims are batches: one due
 * query, one bulk write of updates each conditional on the version the query read (`{_id, version}`,
 * so of two dispatchers one takes each delivery), one read by id of what this claim took. Methods
 * named `...InAnyBusiness` serve the dispatcher, which delivers for every tenant.
 */
export class WebhookDeliveryRepository {
  async ensureIndexes(): Promise<void> {
    await WebhookDeliveryModel.createIndexes();
  }

  /** Inserts those not there yet (same event and endpoint: a repeated fan-out); answers how many were new. */
  async enqueueMany(deliveries: readonly WebhookDeliveryEntity[]): Promise<number> {
    return deliveries.length - (await insertManyIfAbsent(WebhookDeliveryModel.collection, deliveries)).size;
  }

  /** Pending deliveries in every business (the cmsg_webhook_backlog gauge). Index { status, due_at, endpoint_id }. */
  countPendingInAnyBusiness(): Promise<number> {
    return WebhookDeliveryModel.countDocuments({ status: 'pending' }).exec();
  }

  /**
   * Up to `limit` deliveries due at `now`, oldest due first, leaving out the endpoints in
   * `skipEndpoints` (those whose cap the caller has reached). Index { status, due_at, endpoint_id }.
   */
  findDueInAnyBusiness(now: Date, skipEndpoints: readonly string[], limit: number): Promise<DueDelivery[]> {
    const filter = { status: 'pending', due_at: { $lte: now }, ...(skipEndpoints.length > 0 ? { endpoint_id: { $nin: skipEndpoints } } : {}) };
    return WebhookDeliveryModel.find(filter, { endpoint_id: 1, version: 1 }).sort({ due_at: 1 }).limit(limit).lean<DueDelivery[]>().exec();
  }

  /**
   * Claims those of `due` still at the version read, each until `leaseUntil` (its due_at: a claim
   * whose dispatcher dies is due again then), and answers the claimed deliveries. Index _id
   * for each update and for the read.
   */
  async claimInAnyBusiness(due: readonly DueDelivery[], claimId: string, leaseUntil: Date): Promise<ClaimedDelivery[]> {
    if (due.length === 0) return [];
    const operations = due.map((delivery) => ({
      updateOne: { filter: { _id: delivery._id, version: delivery.version }, update: { $set: { claim_id: claimId, due_at: leaseUntil }, $inc: { version: 1 } } },
    }));
    const result = await WebhookDeliveryModel.bulkWrite(operations as unknown as AnyBulkWriteOperation[], { ordered: false });
    if (result.modifiedCount === 0) return [];
    const found = await WebhookDeliveryModel.find({ _id: { $in: due.map((delivery) => delivery._id) } }).lean<WebhookDeliveryEntity[]>().exec();
    return found.filter((delivery) => delivery.claim_id === claimId && delivery.status === 'pending').map((delivery) => ({ delivery, version: delivery.version }));
  }

  /**
   * Records attempts' outcomes in one bulk write, each unless another write came first (the lease
   * ran out, a redelivery). Index _id for each update.
   */
  async recordOutcomesInAnyBusiness(outcomes: readonly { claimed: ClaimedDelivery; outcome: AttemptOutcome }[]): Promise<void> {
    if (outcomes.length === 0) return;
    const operations = outcomes.map(({ claimed, outcome }) => ({ updateOne: { filter: { _id: claimed.delivery._id, version: claimed.version }, update: outcomeUpdate(outcome) } }));
    await WebhookDeliveryModel.bulkWrite(operations as unknown as AnyBulkWriteOperation[], { ordered: false });
  }

  /** Gives up a claimed delivery without an attempt (its endpoint is gone or disabled). Index _id. */
  async abandonInAnyBusiness(claimed: ClaimedDelivery, reason: string): Promise<void> {
    await WebhookDeliveryModel.updateOne(
      { _id: claimed.delivery._id, version: claimed.version },
      { $set: { status: 'failed', last_error: reason, next_attempt_at: null, due_at: null }, $inc: { version: 1 } },
    );
  }

  /** A disabled endpoint's pending deliveries stop (those in flight too: their outcome is not recorded). Index { business_id, endpoint_id, status, ... }. */
  async failPendingOfEndpoint(scope: BusinessScope, endpointId: string, reason: string): Promise<number> {
    const result = await WebhookDeliveryModel.updateMany(
      scopedFilter(scope, { endpoint_id: endpointId, status: 'pending' }),
      { $set: { status: 'failed', last_error: reason, next_attempt_at: null, due_at: null }, $inc: { version: 1 } },
    );
    return result.modifiedCount;
  }

  /** Newest first, `limit` before `before`, optionally of one status. Index { business_id, endpoint_id, [status,] created_at, _id }. */
  listPage(scope: BusinessScope, endpointId: string, status: DeliveryStatus | null, before: DeliveryPagePosition | null, limit: number): Promise<WebhookDeliveryEntity[]> {
    const keyset = before ? { $or: [{ created_at: { $lt: before.createdAt } }, { created_at: before.createdAt, _id: { $lt: before.id } }] } : {};
    return WebhookDeliveryModel.find(scopedFilter(scope, { endpoint_id: endpointId, ...(status ? { status } : {}), ...keyset }), { body: 0 })
      .sort({ created_at: -1, _id: -1 })
      .limit(limit)
      .lean<WebhookDeliveryEntity[]>()
      .exec();
  }

  /**
   * Sends the event to the endpoint again: pending and due now, a new run of attempts and 24 h of
   * retries. Null when the endpoint never had that event. Index _id (the business is checked on that one document).
   */
  redeliver(scope: BusinessScope, endpointId: string, eventId: string, now: Date, retryUntil: Date): Promise<WebhookDeliveryEntity | null> {
    return WebhookDeliveryModel.findOneAndUpdate(
      scopedFilter(scope, { _id: deliveryId(eventId, endpointId) }),
      { $set: { status: 'pending', attempts: 0, next_attempt_at: now, due_at: now, retry_until: retryUntil, last_error: null }, $inc: { version: 1 } },
      { returnDocument: 'after', projection: { body: 0 } },
    )
      .lean<WebhookDeliveryEntity>()
      .exec();
  }
}
