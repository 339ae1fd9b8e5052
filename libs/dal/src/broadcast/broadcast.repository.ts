import { insertIfAbsent } from '../shared/duplicate-key';
import type { Filter, UpdateFilter } from 'mongodb';
import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import type { OutboxEntry } from '../shared/outbox-entry.schema';
import { TenantRepository } from '../shared/tenant-repository';
import type { BroadcastCountsEntity, BroadcastEntity, BroadcastFreezeCheckpoint, BroadcastState } from './broadcast.entity';
import { BroadcastModel } from './broadcast.schema';

/** A coordinator step to run: the broadcast as read, and the due_at its claim set (the lease). */
export interface ClaimedBroadcast {
  broadcast: BroadcastEntity;
  leaseUntil: Date;
}

/** Fields a state change sets, and the event it records. */
export interface BroadcastChange {
  set: Partial<Omit<BroadcastEntity, '_id' | 'business_id' | 'outbox'>>;
  event?: OutboxEntry;
  /** Raises dispatch_epoch (a new dispatch of the pending recipients follows). */
  redispatch?: boolean;
}

/** The broadcasts collection (docs/broadcasts.md). */
export class BroadcastRepository extends TenantRepository<BroadcastEntity> {
  constructor() {
    super(BroadcastModel);
  }

  /** False when a broadcast of this id exists already (the same create operation, retried). */
  insertIfAbsent(broadcast: BroadcastEntity): Promise<boolean> {
    return insertIfAbsent(() => this.collection().insertOne(broadcast));
  }

  /** Newest first, after a (created_at, _id) position. Index: {business_id, [status], created_at, _id}. */
  listPage(scope: BusinessScope, options: { status?: BroadcastState; after?: { created_at: Date; _id: string }; limit: number }): Promise<BroadcastEntity[]> {
    const filter: Record<string, unknown> = {};
    if (options.status) filter['status'] = options.status;
    if (options.after) {
      filter['$or'] = [{ created_at: { $lt: options.after.created_at } }, { created_at: options.after.created_at, _id: { $lt: options.after._id } }];
    }
    return this.collection()
      .find(scopedFilter(scope, filter) as Filter<BroadcastEntity>)
      .sort({ created_at: -1, _id: -1 })
      .limit(options.limit)
      .toArray() as Promise<BroadcastEntity[]>;
  }

  /** Broadcasts of every business whose next step is due, oldest first. Index: {due_at}. */
  findDueAcrossBusinesses(now: Date, limit: number): Promise<BroadcastEntity[]> {
    return this.collection()
      .find({ due_at: { $lte: now } } as Filter<BroadcastEntity>)
      .sort({ due_at: 1 })
      .limit(limit)
      .toArray() as Promise<BroadcastEntity[]>;
  }

  /** Takes the broadcast's next step until `leaseUntil`, if it is still due as read. Index: {business_id, _id}. */
  async claim(scope: BusinessScope, broadcast: BroadcastEntity, leaseUntil: Date): Promise<ClaimedBroadcast | null> {
    const claimed = await this.collection().findOneAndUpdate(
      scopedFilter(scope, { _id: broadcast._id, status: broadcast.status, due_at: broadcast.due_at }) as Filter<BroadcastEntity>,
      { $set: { due_at: leaseUntil } },
      { returnDocument: 'after' },
    );
    return claimed ? { broadcast: claimed as BroadcastEntity, leaseUntil } : null;
  }

  /** The freeze checkpoint after a batch; false when the lease was lost (another replica took over). */
  async saveCheckpoint(scope: BusinessScope, claimed: ClaimedBroadcast, freeze: BroadcastFreezeCheckpoint, leaseUntil: Date): Promise<boolean> {
    const result = await this.collection().updateOne(
      scopedFilter(scope, { _id: claimed.broadcast._id, status: 'preparing', due_at: claimed.leaseUntil }) as Filter<BroadcastEntity>,
      { $set: { freeze, due_at: leaseUntil } },
    );
    if (result.modifiedCount === 1) claimed.leaseUntil = leaseUntil;
    return result.modifiedCount === 1;
  }

  /**
   * Moves the broadcast from one of `from` to what `change` sets, with its event in the same
   * update: the broadcast as changed, or null when its state was none of `from`.
   */
  async transition(scope: BusinessScope, id: string, from: readonly BroadcastState[], change: BroadcastChange): Promise<BroadcastEntity | null> {
    const update: UpdateFilter<BroadcastEntity> = { $set: change.set as Partial<BroadcastEntity> };
    if (change.event) update.$push = { outbox: change.event } as never;
    if (change.redispatch) update.$inc = { dispatch_epoch: 1 } as never;
    const changed = await this.collection().findOneAndUpdate(scopedFilter(scope, { _id: id, status: { $in: [...from] } }) as Filter<BroadcastEntity>, update, {
      returnDocument: 'after',
    });
    return changed as BroadcastEntity | null;
  }

  /** The counts as last computed, and when the next coordinator step is due. */
  async saveCounts(
    scope: BusinessScope,
    id: string,
    counts: { counts: BroadcastCountsEntity; skipped_by_reason: Record<string, number>; failed_by_code: Record<string, number>; progress_at: Date | null; counts_at: Date; recount_at?: Date; current_per_second: number },
  ): Promise<void> {
    await this.collection().updateOne(scopedFilter(scope, { _id: id }) as Filter<BroadcastEntity>, { $set: counts });
  }

  /** When the coordinator looks at it next (null: never, it is final). */
  async setDue(scope: BusinessScope, id: string, dueAt: Date | null): Promise<void> {
    await this.collection().updateOne(scopedFilter(scope, { _id: id }) as Filter<BroadcastEntity>, { $set: { due_at: dueAt } });
  }

  /** The broadcasts of a channel in these states. Index: {business_id, channel_id, status}. */
  findOnChannel(scope: BusinessScope, channelId: string, states: readonly BroadcastState[]): Promise<BroadcastEntity[]> {
    return this.collection()
      .find(scopedFilter(scope, { channel_id: channelId, status: { $in: [...states] } }) as Filter<BroadcastEntity>)
      .toArray() as Promise<BroadcastEntity[]>;
  }
}
