import { businessScope } from '@cmsg/dal';
import { createPhoneContacts } from './create-phone-contacts.usecase';
import { type ContactWorld, contactWorld, inMemoryContactBulkPorts, storedContact } from './in-memory-contact-ports';
import { upsertContact } from './upsert-contact.usecase';

const mine = businessScope('b1');
const at = new Date('2026-11-29T10:00:00Z');
const channel = { id: 'ch1', publicKey: 'main' };
const PHONES = ['+52 1 55 1234 5678', '5215598765432', '+1 650 555 1234'];
const KEYS = ['5215512345678', '5215598765432', '16505551234'];
const idOf = (key: string) => `contact:ch1:phone:${key}`;

function world(): ContactWorld {
  const data = contactWorld();
  data.channels.push({ id: 'ch1', publicKey: 'main', business_id: 'b1' });
  return data;
}

/** What a world holds once written, without the random ids that only name entries. */
function written(data: ContactWorld) {
  return {
    contacts: data.contacts.map((contact) => ({ ...contact, outbox: contact.outbox?.length })).sort((a, b) => a._id.localeCompare(b._id)),
    conversations: [...data.conversations].sort((a, b) => a._id.localeCompare(b._id)),
    events: data.recorded.map(({ collection, documentId, entry }) => ({ collection, documentId, type: entry.type, data: entry.data, author: entry.author, conversation_id: entry.conversation_id })).sort((a, b) => `${a.documentId}${a.type}`.localeCompare(`${b.documentId}${b.type}`)),
  };
}

describe('createPhoneContacts', () => {
  it('creates each phone\'s contact as POST /contacts {channel, phone} creates it: the same ids, fields, conversation and events', async () => {
    const bulk = world();
    const ids = await createPhoneContacts(inMemoryContactBulkPorts(bulk, { at }), mine, channel, PHONES);
    expect(ids).toEqual(new Map(KEYS.map((key) => [key, idOf(key)])));

    const oneByOne = world();
    for (const phone of PHONES) await upsertContact(inMemoryContactBulkPorts(oneByOne, { at }), mine, { tokenUuid: '' }, { channel: 'main', phone });
    expect(written(bulk)).toEqual(written(oneByOne));
    expect(written(bulk).events.map((event) => event.type)).toEqual(['contact.created', 'contact.created', 'contact.created']);
    expect(bulk.conversations.map((conversation) => conversation.contact_id).sort()).toEqual(KEYS.map(idOf).sort());
  });

  it('makes one contact of two spellings of one number, and leaves out a phone that is not 8 to 15 digits', async () => {
    const data = world();
    const ids = await createPhoneContacts(inMemoryContactBulkPorts(data, { at }), mine, channel, ['+52 1 55 1234 5678', '5215512345678', '1234567', '1234567890123456']);
    expect(ids).toEqual(new Map([[KEYS[0]!, idOf(KEYS[0]!)]]));
    expect(data.contacts).toHaveLength(1);
  });

  it('matches a contact another writer created meanwhile on its own, as POST /contacts would, writing nothing to it', async () => {
    const data = world();
    // Created between the caller's lookup and this insert, with the id the phone's identity gives.
    data.contacts.push(storedContact('b1', idOf(KEYS[1]!), { phone: '+5215598765432', phone_key: KEYS[1], first_name: 'Bea', revision: 0 }));
    const ids = await createPhoneContacts(inMemoryContactBulkPorts(data, { at }), mine, channel, PHONES);
    expect(ids.get(KEYS[1]!)).toBe(idOf(KEYS[1]!));
    expect(data.contacts).toHaveLength(3);
    expect(data.contacts.find((contact) => contact._id === idOf(KEYS[1]!))).toMatchObject({ first_name: 'Bea' });
    // Its conversation healed (ensured) as the upsert does; no contact.created of its own.
    expect(data.conversations.map((conversation) => conversation.contact_id)).toContain(idOf(KEYS[1]!));
    expect(data.recorded.filter((recorded) => recorded.documentId === idOf(KEYS[1]!))).toEqual([]);
  });

  it('writes nothing for no phones', async () => {
    const data = world();
    expect(await createPhoneContacts(inMemoryContactBulkPorts(data, { at }), mine, channel, [])).toEqual(new Map());
    expect(data.contacts).toEqual([]);
  });
});
