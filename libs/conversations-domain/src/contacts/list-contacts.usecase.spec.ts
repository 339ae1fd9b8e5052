import { businessScope } from '@cmsg/dal';
import { ListCursorCodec } from '../listing/list-cursor';
import { type ContactWorld, contactWorld, inMemoryContactPorts, storedContact } from './in-memory-contact-ports';
import { type ListContactsRequest, listContacts } from './list-contacts.usecase';

const mine = businessScope('b1');
const day = (n: number) => new Date(Date.UTC(2026, 10, n));

function world(): ContactWorld {
  const data = contactWorld();
  data.channels.push({ id: 'ch1', publicKey: 'main', business_id: 'b1' });
  data.contacts.push(
    storedContact('b1', 'c1', { created_at: day(1), updated_at: day(20), phone_key: '5215512345678', phone: '+5215512345678' }),
    storedContact('b1', 'c2', { created_at: day(2), updated_at: day(2), chat_user_id: 'u-2', username_key: 'bea_ok', is_tester: true }),
    // Same created_at as c4: the uuid breaks the tie (descending).
    storedContact('b1', 'c3', { created_at: day(3), updated_at: day(3) }),
    storedContact('b1', 'c4', { created_at: day(3), updated_at: day(25), is_tester: true }),
    storedContact('b2', 'theirs', { created_at: day(4), updated_at: day(4), phone_key: '5215512345678' }),
  );
  data.conversations.push({ _id: 'conv-1', business_id: 'b1', contact_id: 'c1', channel_id: 'ch1', contact: { first_name: null, last_name: null }, created_at: day(1) });
  return data;
}

describe('listContacts', () => {
  let data: ContactWorld;
  const codec = new ListCursorCodec('secret');
  const list = (request: Partial<ListContactsRequest>, scope = mine) => listContacts(inMemoryContactPorts(data, { at: day(28) }), scope, codec, { limit: 50, testersOnly: false, ...request });
  const uuids = async (request: Partial<ListContactsRequest>) => (await list(request)).items.map((item) => item.uuid);

  beforeEach(() => {
    data = world();
  });

  it("lists the business's contacts newest first, uuid breaking ties, in their public shape", async () => {
    const page = await list({});
    expect(page.items.map((item) => item.uuid)).toEqual(['c4', 'c3', 'c2', 'c1']);
    expect(page.items[3]).toMatchObject({ uuid: 'c1', channel: 'main', phone: '+5215512345678', conversation_uuid: 'conv-1' });
    expect(page).toMatchObject({ has_more: false, next_cursor: '' });
  });

  it('pages with a cursor to the end, each contact once', async () => {
    const first = await list({ limit: 3 });
    expect(first.items.map((item) => item.uuid)).toEqual(['c4', 'c3', 'c2']);
    expect(first.has_more).toBe(true);
    const second = await list({ limit: 3, cursor: first.next_cursor });
    expect(second).toMatchObject({ has_more: false, next_cursor: '' });
    expect(second.items.map((item) => item.uuid)).toEqual(['c1']);
  });

  it('lists testers only for /tester/contacts, with cursors of its own', async () => {
    expect(await uuids({ testersOnly: true })).toEqual(['c4', 'c2']);
    const first = await list({ limit: 1 });
    await expect(list({ limit: 1, testersOnly: true, cursor: first.next_cursor })).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
  });

  it('filters by phone in any notation, chat_user_id, username and updated_since, combined with AND', async () => {
    expect(await uuids({ filters: { phone: '+52 1 55 1234-5678' } })).toEqual(['c1']);
    expect(await uuids({ filters: { chatUserId: 'u-2' } })).toEqual(['c2']);
    expect(await uuids({ filters: { username: ' @Bea_OK ' } })).toEqual(['c2']);
    expect(await uuids({ filters: { updatedSince: day(20).toISOString() } })).toEqual(['c4', 'c1']);
    expect(await uuids({ filters: { updatedSince: day(20).toISOString(), phone: '5215512345678' } })).toEqual(['c1']);
    expect(await uuids({ filters: { updatedSince: day(21).toISOString(), phone: '5215512345678' } })).toEqual([]);
  });

  it('answers INVALID_REQUEST for an updated_since that is not a date-time', async () => {
    await expect(list({ filters: { updatedSince: 'yesterday' } })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  });

  it('binds the filters into the cursor: INVALID_CURSOR with other filters, the same ones in another notation page on', async () => {
    data.contacts.push(storedContact('b1', 'c0', { created_at: day(1), updated_at: day(1), phone_key: '5215512345678' }));
    const first = await list({ limit: 1, filters: { phone: '+52 1 55 1234 5678' } });
    expect(first.items.map((item) => item.uuid)).toEqual(['c1']);
    await expect(list({ limit: 1, filters: { phone: '5215500000000' }, cursor: first.next_cursor })).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
    await expect(list({ limit: 1, cursor: first.next_cursor })).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
    const second = await list({ limit: 1, filters: { phone: '5215512345678' }, cursor: first.next_cursor });
    expect(second.items.map((item) => item.uuid)).toEqual(['c0']);
  });

  it("never lists another business's contacts", async () => {
    expect((await list({}, businessScope('b2'))).items.map((item) => item.uuid)).toEqual(['theirs']);
    expect(await uuids({ filters: { phone: '5215512345678' } })).toEqual(['c1']);
  });
});
