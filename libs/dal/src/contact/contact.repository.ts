import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { insertIfAbsent } from '../shared/duplicate-key';
import { TenantRepository } from '../shared/tenant-repository';
import type { ContactEntity, ContactLookupKey } from './contact.entity';
import { ContactModel } from './contact.schema';

type Fields = Record<string, unknown>;

/** What a contact list page is filtered by (CONTRACT 9.1); every part optional, combined with AND. */
export interface ContactListFilter {
  testersOnly: boolean;
  /** Contacts updated at or after this instant. */
  updatedSince?: Date;
  /** Exact lookups by normalised keys (shared/lookup-keys.ts). */
  lookup: Partial<{ chat_user_id: string; username_key: string; phone_key: string }>;
}

const LOOKUP_KEYS_MOST_SELECTIVE_FIRST = ['chat_user_id', 'username_key', 'phone_key'] as const;

function definedOnly(fields: Fields): Fields {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

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

  /**
   * One page of the business's contacts, newest first: `after` is the keyset filter of the cursor.
   * With exact lookups, the contacts holding one key are found first (its lookup index) and
   * the page is read among those ids, so any combination of lookups is served by an index without
   * one index per combination. A lookup key names one person: a contact per channel, a handful.
   */
  async listPage(scope: BusinessScope, page: ContactListFilter & { after: Fields; limit: number }): Promise<ContactEntity[]> {
    const candidateIds = await this.idsOfMostSelectiveLookup(scope, page.lookup);
    if (candidateIds?.length === 0) return [];
    const filter = scopedFilter(scope, {
      ...(candidateIds ? { _id: { $in: candidateIds } } : {}),
      ...definedOnly(page.lookup),
      ...(page.testersOnly ? { is_tester: true } : {}),
      ...(page.updatedSince ? { updated_at: { $gte: page.updatedSince } } : {}),
      ...page.after,
    });
    return ContactModel.find(filter).sort({ created_at: -1, _id: -1 }).limit(page.limit).lean<ContactEntity[]>().exec();
  }

  /** Ids of the contacts holding the most selective lookup key given (undefined: no lookup). */
  private async idsOfMostSelectiveLookup(scope: BusinessScope, lookup: ContactListFilter['lookup']): Promise<string[] | undefined> {
    const key = LOOKUP_KEYS_MOST_SELECTIVE_FIRST.find((candidate) => lookup[candidate] !== undefined);
    if (key === undefined) return undefined;
    const contacts = await ContactModel.find(scopedFilter(scope, { [key]: lookup[key] }), { _id: 1 }).lean<{ _id: string }[]>().exec();
    return contacts.map((contact) => contact._id);
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
