import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { insertIfAbsent } from '../shared/duplicate-key';
import type { OutboxEntry } from '../shared/outbox-entry.schema';
import { TenantRepository } from '../shared/tenant-repository';
import type { ContactErasureEntity } from './contact-erasure.entity';
import { ContactErasureModel } from './contact-erasure.schema';

/** A pass to run: the erasure as read, and the due_at its claim set (the lease). */
export interface ClaimedErasure {
  erasure: ContactErasureEntity;
  leaseUntil: Date;
}

/** The contact_erasures collection: one document per erased contact, kept (ids only). */
export class ContactErasureRepository extends TenantRepository<ContactErasureEntity> {
  constructor() {
    super(ContactErasureModel);
  }

  /** The erasure of a contact, unless one exists: true when this call inserted it. */
  insertIfAbsent(erasure: ContactErasureEntity): Promise<boolean> {
    return insertIfAbsent(() => this.collection().insertOne(erasure));
  }

  /**
   * Takes the erasure's next pass until `leaseUntil`, if it is still due as read (another replica
   * may have taken it): the answered erasure, or null. Index: {business_id, _id}.
   */
  async claim(scope: BusinessScope, erasure: ContactErasureEntity, leaseUntil: Date): Promise<ClaimedErasure | null> {
    const claimed = await ContactErasureModel.findOneAndUpdate(
      scopedFilter(scope, { _id: erasure._id, state: erasure.state, due_at: erasure.due_at }),
      { $set: { due_at: leaseUntil } },
      { new: true },
    )
      .lean<ContactErasureEntity>()
      .exec();
    return claimed ? { erasure: claimed, leaseUntil } : null;
  }

  /** Erasures of every business whose next pass is due, oldest first. Index: {due_at}. */
  findDueAcrossBusinesses(now: Date, limit: number): Promise<ContactErasureEntity[]> {
    return ContactErasureModel.find({ due_at: { $lte: now } })
      .sort({ due_at: 1 })
      .limit(limit)
      .lean<ContactErasureEntity[]>()
      .exec();
  }

  /** Keeps the sequence contact.erased takes; the first one kept stands (a repeated pass takes another). */
  async keepEventSequence(scope: BusinessScope, id: string, sequence: number): Promise<number> {
    const kept = await ContactErasureModel.findOneAndUpdate(scopedFilter(scope, { _id: id, event_sequence: null }), { $set: { event_sequence: sequence } }, { new: true })
      .lean<ContactErasureEntity>()
      .exec();
    if (kept) return sequence;
    return (await this.findById(scope, id))?.event_sequence ?? sequence;
  }

  /** erasing -> settling, its pass due at `dueAt`; false when the lease was lost. */
  async settle(scope: BusinessScope, claimed: ClaimedErasure, dueAt: Date): Promise<boolean> {
    const result = await ContactErasureModel.updateOne(scopedFilter(scope, { _id: claimed.erasure._id, state: 'erasing', due_at: claimed.leaseUntil }), {
      $set: { state: 'settling', due_at: dueAt },
    }).exec();
    return result.modifiedCount === 1;
  }

  /** settling -> erased with contact.erased in its outbox; false when the lease was lost. */
  async finish(scope: BusinessScope, claimed: ClaimedErasure, now: Date, erased: OutboxEntry): Promise<boolean> {
    const result = await ContactErasureModel.updateOne(scopedFilter(scope, { _id: claimed.erasure._id, state: 'settling', due_at: claimed.leaseUntil }), {
      $set: { state: 'erased', due_at: null, finished_at: now },
      $push: { outbox: erased },
    }).exec();
    return result.modifiedCount === 1;
  }
}
