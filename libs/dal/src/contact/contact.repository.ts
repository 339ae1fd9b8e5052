import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { duplicateKeyIndex, insertIfAbsent, insertManyIfAbsent, isDuplicateKeyError } from '../shared/duplicate-key';
import type { OutboxEntry } from '../shared/outbox-entry.schema';
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
export type NewContact = Pick<ContactEntity, '_id' | 'channel_id' | 'created_at' | 'updated_at'> & Partial<Omit<ContactEntity, 'business_id' | 'outbox'>> & { outbox?: OutboxEntry[] };

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

  /** The contact holding this external_id (CONTRACT 10.1: unique per business). */
  findByExternalId(scope: BusinessScope, externalId: string): Promise<ContactEntity | null> {
    return ContactModel.findOne(scopedFilter(scope, { external_id: externalId })).lean<ContactEntity>().exec();
  }

  /**
   * Inserts contacts written in bulk (an audience file's new phones) as insertNew inserts one:
   * answers the ids inserted; a contact whose id or unique key exists already is left out (its
   * caller upserts it one at a time).
   */
  async insertManyNew(scope: BusinessScope, contacts: readonly NewContact[]): Promise<string[]> {
    const documents = contacts.map((contact) => ({ ...storedContactDefaults(), ...contact, business_id: scope.businessId }));
    const lost = await insertManyIfAbsent(ContactModel.collection, documents);
    return contacts.filter((_contact, index) => !lost.has(index)).map((contact) => contact._id);
  }

  /**
   * Inserts a contact written through the API: 'inserted', 'id_taken' when a contact with this id
   * exists (the same identity created concurrently), 'external_id_taken' when another holds its external_id.
   */
  async insertNew(scope: BusinessScope, contact: NewContact): Promise<'inserted' | 'id_taken' | 'external_id_taken'> {
    try {
      await ContactModel.collection.insertOne({ ...storedContactDefaults(), ...contact, business_id: scope.businessId } as never);
      return 'inserted';
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      return duplicateKeyIndex(error)?.startsWith('external_id_key') ? 'external_id_taken' : 'id_taken';
    }
  }

  /**
   * Writes the fields if the contact is still at `revision` (compare-and-set), bumping it and pushing
   * the entries of the events the change makes. 'stale': another write came first (read again and
   * retry); 'external_id_taken': another contact holds the new external_id.
   */
  async updateAtRevision(
    scope: BusinessScope,
    id: string,
    revision: number,
    change: { set: Fields; unset: readonly string[]; outbox: readonly OutboxEntry[] },
  ): Promise<{ outcome: 'updated'; contact: ContactEntity } | { outcome: 'stale' | 'external_id_taken' }> {
    const unset = Object.fromEntries(change.unset.map((field) => [field, '']));
    const atRevision = revision === 0 ? { $or: [{ revision: 0 }, { revision: { $exists: false } }] } : { revision };
    try {
      const updated = await ContactModel.collection.findOneAndUpdate(
        scopedFilter(scope, { _id: id, ...atRevision }) as never,
        {
          $set: { ...change.set, revision: revision + 1 },
          ...(change.unset.length > 0 ? { $unset: unset } : {}),
          ...(change.outbox.length > 0 ? { $push: { outbox: { $each: [...change.outbox] } } } : {}),
        } as never,
        { returnDocument: 'after' },
      );
      return updated ? { outcome: 'updated', contact: updated as unknown as ContactEntity } : { outcome: 'stale' };
    } catch (error) {
      if (isDuplicateKeyError(error) && duplicateKeyIndex(error)?.startsWith('external_id_key')) return { outcome: 'external_id_taken' };
      throw error;
    }
  }

  /**
   * One page of the contacts a compiled search filter (libs/contact-filter) matches, newest first;
   * `after` is the keyset filter of the cursor.
   */
  searchPage(scope: BusinessScope, page: { filter: Fields; after: Fields; limit: number }): Promise<ContactEntity[]> {
    const filter = scopedFilter(scope, Object.keys(page.after).length > 0 ? { $and: [page.filter, page.after] } : page.filter);
    return ContactModel.find(filter).sort({ created_at: -1, _id: -1 }).limit(page.limit).lean<ContactEntity[]>().exec();
  }

  /**
   * Contacts of a channel a compiled filter matches, in _id order after `afterId`: a broadcast's
   * audience frozen in batches (docs/broadcasts.md). Index: {business_id, _id}.
   */
  findMatchingInIdOrder(scope: BusinessScope, page: { filter: Fields; channelId: string; afterId: string | null; limit: number }): Promise<ContactEntity[]> {
    const conditions: Fields[] = [page.filter, { channel_id: page.channelId }];
    if (page.afterId !== null) conditions.push({ _id: { $gt: page.afterId } });
    return ContactModel.find(scopedFilter(scope, { $and: conditions })).sort({ _id: 1 }).limit(page.limit).lean<ContactEntity[]>().exec();
  }

  /**
   * Copies its conversation's searchable state onto the contact (search filters on tag, inbox_status
   * and last_inbound_at: CONTRACT 10.1), unless the contact holds a copy of a later state already
   * (a higher conversation event_sequence), so copies made out of order end on the latest one.
   */
  async copyConversationState(scope: BusinessScope, contactId: string, state: ConversationStateCopy): Promise<void> {
    await ContactModel.collection.updateOne(stateCopyFilter(scope, contactId, state) as never, { $set: conversationStateFields(state) });
  }

  /** The same for many contacts in one bulk write. */
  async copyConversationStates(scope: BusinessScope, states: ReadonlyMap<string, ConversationStateCopy>): Promise<void> {
    if (states.size === 0) return;
    const operations = [...states].map(([contactId, state]) => ({ updateOne: { filter: stateCopyFilter(scope, contactId, state), update: { $set: conversationStateFields(state) } } }));
    await ContactModel.collection.bulkWrite(operations as never[], { ordered: false });
  }
}

/** The contact, unless its copy is of a later state (a copy made before sequences were kept has none). */
function stateCopyFilter(scope: BusinessScope, contactId: string, state: ConversationStateCopy): Fields {
  return scopedFilter(scope, { _id: contactId, $or: [{ conversation_state_sequence: { $exists: false } }, { conversation_state_sequence: { $lte: state.sequence } }] });
}

/** What contact search reads from the contact's conversation (docs/contacts.md). */
export interface ConversationStateCopy {
  tag_ids: readonly string[];
  inbox_status: string;
  last_inbound_at: Date | null;
  /** The conversation's event_sequence in the state copied: every change of these fields takes one. */
  sequence: number;
}

function conversationStateFields(state: ConversationStateCopy): Fields {
  return { tag_ids: [...state.tag_ids], inbox_status: state.inbox_status, last_inbound_at: state.last_inbound_at, conversation_state_sequence: state.sequence };
}

/**
 * The stored defaults of the fields a raw insert would otherwise leave out (mongoose's schema
 * defaults); also what the in-memory contact stores of the unit specs store.
 */
export function storedContactDefaults(): Fields {
  const unknownConsent = { status: 'unknown', source: null, updated_at: null };
  return {
    first_name: null, middle_name: null, last_name: null, second_last_name: null, profile_name: null, phone: null, phone_key: null,
    chat_user_id: null, chat_username: null, username_key: null, acquisition_source: null, is_tester: false,
    first_name_key: null, last_name_key: null, email: null, email_key: null, language: null, external_id: null,
    attributes: [], consent: { marketing: unknownConsent, utility: { ...unknownConsent } }, tag_ids: [], inbox_status: null,
    last_inbound_at: null, revision: 0, outbox: [],
  };
}
