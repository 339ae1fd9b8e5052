import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { insertIfAbsent } from '../shared/duplicate-key';
import { TenantRepository } from '../shared/tenant-repository';
import type { ContactEntity, ContactLookupKey } from './contact.entity';
import { ContactModel } from './contact.schema';

type Fields = Record<string, unknown>;

/** A new contact, as stored (without business_id, which the scope gives); absent fields take their defaults. */
export type NewContact = Pick<ContactEntity, '_id' | 'channel_id' | 'created_at' | 'updated_at'> & Partial<Omit<ContactEntity, 'business_id'>>;

export class ContactRepository extends TenantRepository<ContactEntity> {
  constructor() {
    super(ContactModel);
  }

  /** Contacts with this key (within one channel when given), at most `limit`: two tell a reference is ambiguous. */
  findByLookupKey(scope: BusinessScope, key: ContactLookupKey, channelId: string | undefined, limit = 2): Promise<ContactEntity[]> {
    const filter = scopedFilter(scope, { ...key, ...(channelId === undefined ? {} : { channel_id: channelId }) });
    return ContactModel.find(filter).limit(limit).lean<ContactEntity[]>().exec();
  }

  /** The oldest contact of the channel with this key (an inbound sender; duplicates made by hand or a seed: the oldest wins). */
  async findOldestOnChannel(scope: BusinessScope, channelId: string, key: ContactLookupKey): Promise<ContactEntity | null> {
    const [oldest] = await ContactModel.find(scopedFilter(scope, { channel_id: channelId, ...key }))
      .sort({ created_at: 1, _id: 1 })
      .limit(1)
      .lean<ContactEntity[]>();
    return oldest ?? null;
  }

  /** One page of the business's contacts, newest first: `after` is the keyset filter of the cursor. */
  listPage(scope: BusinessScope, page: { testersOnly: boolean; after: Fields; limit: number }): Promise<ContactEntity[]> {
    const filter = scopedFilter(scope, { ...(page.testersOnly ? { is_tester: true } : {}), ...page.after });
    return ContactModel.find(filter).sort({ created_at: -1, _id: -1 }).limit(page.limit).lean<ContactEntity[]>().exec();
  }

  /** False when a contact with this id exists (a concurrent delivery of the same new sender created it). */
  insertIfAbsent(scope: BusinessScope, contact: NewContact): Promise<boolean> {
    return insertIfAbsent(() => ContactModel.create({ ...contact, business_id: scope.businessId }));
  }

  /** Sets the fields and answers the contact as stored after the update (null: no such contact). */
  updateFields(scope: BusinessScope, id: string, fields: Fields, now: Date): Promise<ContactEntity | null> {
    return ContactModel.findOneAndUpdate(scopedFilter(scope, { _id: id }), { $set: { ...fields, updated_at: now } }, { new: true }).lean<ContactEntity>().exec();
  }

  /** Many new contacts in one round trip (benchmarks and tests building large businesses). */
  async insertMany(scope: BusinessScope, contacts: readonly NewContact[]): Promise<void> {
    await ContactModel.insertMany(contacts.map((contact) => ({ ...contact, business_id: scope.businessId })));
  }
}
