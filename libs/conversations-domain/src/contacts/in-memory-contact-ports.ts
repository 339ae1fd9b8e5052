import { type BusinessScope, type ContactEntity, type NewContact, type OutboxEntry, type StoredAttributeDefinition, storedContactDefaults } from '@cmsg/dal';
import type { ContactBulkPorts, ContactChannel, ContactPorts } from './contact-ports';
import { matchesQuery } from './in-memory-contact-query';

type Fields = Record<string, unknown>;

/** A conversation as the contact use cases see it: created for a contact, holding a copy of its names. */
export interface WorldConversation {
  _id: string;
  business_id: string;
  contact_id: string;
  channel_id: string;
  contact: { first_name: string | null; last_name: string | null };
  created_at: Date;
}

/** What the contact use cases reach, in memory, across businesses (so isolation can be asserted). */
export interface ContactWorld {
  /** Businesses that exist; defining an attribute for any other answers no_business. */
  businesses: Set<string>;
  contacts: ContactEntity[];
  definitions: Map<string, StoredAttributeDefinition[]>;
  channels: (ContactChannel & { business_id: string })[];
  conversations: WorldConversation[];
  /** The events recorded (idempotent by entry id, as the event recorder is), in the order recorded. */
  recorded: { collection: string; documentId: string; entry: OutboxEntry }[];
  /** The last random id given (`id-<n>`): kept here so ports built again over the world never repeat one. */
  lastRandomId: number;
  /** Runs just before an insert, as a concurrent writer would (a race to create the same contact). */
  beforeInsert?: (scope: BusinessScope, contact: NewContact) => void;
  /** Runs just after an insert (e.g. an erasure deleting the contact at once). */
  afterInsert?: (scope: BusinessScope, contact: NewContact) => void;
}

export function contactWorld(businesses: readonly string[] = ['b1', 'b2']): ContactWorld {
  return { businesses: new Set(businesses), contacts: [], definitions: new Map(), channels: [], conversations: [], recorded: [], lastRandomId: 0 };
}

/**
 * A stored contact with the repository's defaults (ContactRepository.insertNew), for seeding a
 * world. `fields` are loose (plain attribute and outbox arrays, `erased_at`): the entity's types are mongoose's.
 */
export function storedContact(businessId: string, id: string, fields: Fields = {}): ContactEntity {
  const at = new Date('2026-11-01T00:00:00Z');
  return { ...storedContactDefaults(), _id: id, business_id: businessId, channel_id: 'ch1', created_at: at, updated_at: at, ...fields } as unknown as ContactEntity;
}

const same = (scope: BusinessScope, document: { business_id: string }): boolean => document.business_id === scope.businessId;
const newestFirst = (a: ContactEntity, b: ContactEntity): number => b.created_at.getTime() - a.created_at.getTime() || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0);

/**
 * ContactPorts over a ContactWorld with the repositories' semantics: copies in and out, compare-and-set
 * on the revision, the unique external_id per business, `_id` unique across businesses, a recorder
 * that records an entry once and takes it out of the contact's outbox. Ids are readable:
 * `contact:<channel>:<identity>` for a new sender, `conv:<contact>` for its conversation.
 */
export function inMemoryContactPorts(world: ContactWorld, now: { at: Date }): ContactPorts {
  const contactOf = (scope: BusinessScope, id: string) => world.contacts.find((contact) => same(scope, contact) && contact._id === id);
  const copy = <T>(value: T | undefined): T | null => (value === undefined ? null : structuredClone(value));
  const conversationFor = (contactId: string) => `conv:${contactId}`;
  return {
    contacts: {
      findById: async (scope, id) => copy(contactOf(scope, id)),
      findByExternalId: async (scope, externalId) => copy(world.contacts.find((contact) => same(scope, contact) && contact.external_id === externalId)),
      findOldestOnChannel: async (scope, channelId, key) => {
        const [field, value] = Object.entries(key)[0]!;
        const holders = world.contacts.filter((contact) => same(scope, contact) && contact.channel_id === channelId && (contact as unknown as Fields)[field] === value);
        return copy(holders.sort((a, b) => -newestFirst(a, b))[0]);
      },
      insertNew: async (scope, contact) => {
        world.beforeInsert?.(scope, contact);
        if (world.contacts.some((existing) => existing._id === contact._id)) return 'id_taken';
        const externalIdKey = (contact as Fields)['external_id_key'];
        if (externalIdKey !== undefined && world.contacts.some((existing) => (existing as unknown as Fields)['external_id_key'] === externalIdKey)) return 'external_id_taken';
        world.contacts.push(structuredClone({ ...storedContactDefaults(), ...contact, business_id: scope.businessId }) as unknown as ContactEntity);
        world.afterInsert?.(scope, contact);
        return 'inserted';
      },
      updateAtRevision: async (scope, id, revision, change) => {
        const stored = contactOf(scope, id);
        if (!stored || ((stored as { revision?: number | null }).revision ?? 0) !== revision) return { outcome: 'stale' };
        const externalIdKey = change.set['external_id_key'];
        if (externalIdKey !== undefined && world.contacts.some((other) => other !== stored && (other as unknown as Fields)['external_id_key'] === externalIdKey)) return { outcome: 'external_id_taken' };
        const next = structuredClone(stored) as unknown as Fields;
        for (const [path, value] of Object.entries(change.set)) setPath(next, path, structuredClone(value));
        for (const path of change.unset) delete next[path];
        next['revision'] = revision + 1;
        next['outbox'] = [...((stored.outbox ?? []) as OutboxEntry[]), ...change.outbox];
        world.contacts[world.contacts.indexOf(stored)] = next as unknown as ContactEntity;
        return { outcome: 'updated', contact: structuredClone(next) as unknown as ContactEntity };
      },
      searchPage: async (scope, page) =>
        world.contacts
          .filter((contact) => same(scope, contact) && matchesQuery(contact, page.filter) && matchesQuery(contact, page.after))
          .sort(newestFirst)
          .slice(0, page.limit)
          .map((contact) => structuredClone(contact)),
      listPage: async (scope, page) =>
        world.contacts
          .filter((contact) => same(scope, contact) && (!page.testersOnly || contact.is_tester))
          .filter((contact) => Object.entries(page.lookup).every(([field, value]) => value === undefined || (contact as unknown as Fields)[field] === value))
          .filter((contact) => page.updatedSince === undefined || contact.updated_at >= page.updatedSince)
          .filter((contact) => matchesQuery(contact, page.after))
          .sort(newestFirst)
          .slice(0, page.limit)
          .map((contact) => structuredClone(contact)),
    },
    attributeDefinitions: {
      list: async (scope) => structuredClone(world.definitions.get(scope.businessId) ?? []),
      define: async (scope, definition, limit) => {
        if (!world.businesses.has(scope.businessId)) return 'no_business';
        const defined = world.definitions.get(scope.businessId) ?? [];
        if (defined.some((stored) => stored.key === definition.key)) return 'already_defined';
        if (defined.length >= limit) return 'limit_reached';
        world.definitions.set(scope.businessId, [...defined, structuredClone(definition)]);
        return 'defined';
      },
      remove: async (scope, key) => {
        const defined = world.definitions.get(scope.businessId) ?? [];
        if (!defined.some((stored) => stored.key === key)) return false;
        world.definitions.set(scope.businessId, defined.filter((stored) => stored.key !== key));
        for (const contact of world.contacts.filter((candidate) => same(scope, candidate))) {
          (contact as unknown as Fields)['attributes'] = contact.attributes.filter((value) => value.k !== key);
        }
        return true;
      },
    },
    channels: {
      byPublicKey: async (scope, publicKey) => strip(world.channels.find((channel) => same(scope, channel) && channel.publicKey === publicKey)),
      byIds: async (scope, ids) => world.channels.filter((channel) => same(scope, channel) && ids.includes(channel.id)).map((channel) => strip(channel)!),
      first: async (scope, limit) =>
        world.channels
          .filter((channel) => same(scope, channel))
          .sort((a, b) => a.publicKey.localeCompare(b.publicKey))
          .slice(0, limit)
          .map((channel) => strip(channel)!),
    },
    conversations: {
      ensureFor: async (scope, contact, channel, at) => {
        const names = { first_name: contact.first_name ?? null, last_name: contact.last_name ?? null };
        const existing = world.conversations.find((conversation) => same(scope, conversation) && conversation.contact_id === contact._id);
        if (existing) {
          existing.contact = names;
          return existing._id;
        }
        const id = conversationFor(contact._id);
        world.conversations.push({ _id: id, business_id: scope.businessId, contact_id: contact._id, channel_id: channel.id, contact: names, created_at: at });
        return id;
      },
      idsByContactIds: async (scope, contactIds) =>
        new Map(world.conversations.filter((conversation) => same(scope, conversation) && contactIds.includes(conversation.contact_id)).map((conversation) => [conversation.contact_id, conversation._id])),
    },
    events: {
      recordQuietly: async (collection, scope, documentId, entries) => {
        for (const entry of entries) {
          if (!world.recorded.some((recorded) => recorded.entry.id === entry.id)) world.recorded.push({ collection, documentId, entry: structuredClone(entry) });
        }
        const holder = collection === 'contacts' ? contactOf(scope, documentId) : undefined;
        if (holder) (holder as unknown as Fields)['outbox'] = (holder.outbox ?? []).filter((pending) => !entries.some((entry) => entry.id === pending.id));
      },
    },
    clock: () => new Date(now.at),
    ids: {
      random: () => `id-${++world.lastRandomId}`,
      contactFor: async (_scope, channelId, identity) => `contact:${channelId}:${identity}`,
      conversationFor,
    },
  };
}

/** inMemoryContactPorts with the bulk writes, each made of the single ones (the order and outcome the data layer gives). */
export function inMemoryContactBulkPorts(world: ContactWorld, now: { at: Date }): ContactBulkPorts {
  const ports = inMemoryContactPorts(world, now);
  return {
    ...ports,
    contacts: {
      ...ports.contacts,
      insertManyNew: async (scope, contacts) => {
        const inserted: string[] = [];
        for (const contact of contacts) if ((await ports.contacts.insertNew(scope, contact)) === 'inserted') inserted.push(contact._id);
        return inserted;
      },
      findByIds: async (scope, ids) => world.contacts.filter((contact) => same(scope, contact) && ids.includes(contact._id)).map((contact) => structuredClone(contact)),
    },
    conversations: {
      ...ports.conversations,
      ensureManyFor: async (scope, contacts, channel, at) => {
        const ids = new Map<string, string>();
        for (const contact of contacts) ids.set(contact._id, await ports.conversations.ensureFor(scope, contact, channel, at));
        return ids;
      },
    },
    events: {
      ...ports.events,
      recordManyQuietly: async (collection, scope, holders) => {
        for (const { documentId, entries } of holders) await ports.events.recordQuietly(collection, scope, documentId, entries);
      },
    },
    ids: {
      ...ports.ids,
      contactsFor: (scope, channelId, identities) => Promise.all(identities.map((identity) => ports.ids.contactFor(scope, channelId, identity))),
    },
  };
}

/** The recorded events of one contact as `[type, data]`, in the order recorded. */
export function eventsOf(world: ContactWorld, contactId: string): [string, Fields][] {
  return world.recorded.filter((recorded) => recorded.documentId === contactId).map((recorded) => [recorded.entry.type, recorded.entry.data]);
}

function strip(channel: (ContactChannel & { business_id: string }) | undefined): ContactChannel | null {
  return channel ? { id: channel.id, publicKey: channel.publicKey } : null;
}

function setPath(target: Fields, path: string, value: unknown): void {
  const [head, ...rest] = path.split('.');
  if (rest.length === 0) target[head!] = value;
  else setPath((target[head!] ??= {}) as Fields, rest.join('.'), value);
}
