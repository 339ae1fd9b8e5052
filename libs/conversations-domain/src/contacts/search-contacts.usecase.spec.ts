import { businessScope } from '@cmsg/dal';
import { ListCursorCodec } from '../listing/list-cursor';
import { type ContactWorld, contactWorld, inMemoryContactPorts } from './in-memory-contact-ports';
import { searchContacts } from './search-contacts.usecase';
import { upsertContact, type UpsertContactCommand } from './upsert-contact.usecase';

const mine = businessScope('b1');
const theirs = businessScope('b2');

describe('searchContacts', () => {
  let data: ContactWorld;
  const now = { at: new Date('2026-11-01T00:00:00Z') };
  const codec = new ListCursorCodec('secret');
  /** Contacts are written as the API writes them, one minute apart, so their search keys are the real ones. */
  const create = async (command: UpsertContactCommand, scope = mine) => {
    now.at = new Date(now.at.getTime() + 60_000);
    return (await upsertContact(inMemoryContactPorts(data, now), scope, { tokenUuid: 't' }, command)).contact!.uuid;
  };
  const search = (filter: unknown, extra: { cursor?: string; limit?: number } = {}, scope = mine) => searchContacts(inMemoryContactPorts(data, now), codec, scope, { filter, limit: 50, ...extra });
  const uuids = async (filter: unknown) => (await search(filter)).items.map((item) => item.first_name);

  beforeEach(async () => {
    data = contactWorld();
    now.at = new Date('2026-11-01T00:00:00Z');
    data.channels.push({ id: 'ch1', publicKey: 'main', business_id: 'b1' }, { id: 'ch9', publicKey: 'other', business_id: 'b2' });
    data.definitions.set('b1', [{ key: 'plan', type: 'list', options: ['free', 'pro'], created_at: now.at }]);
    data.definitions.set('b2', [{ key: 'plan', type: 'list', options: ['free', 'pro'], created_at: now.at }]);
    await create({ phone: '5215500000001', first_name: 'Ángela', email: 'Angela@Example.com', attributes: { plan: 'pro' } });
    await create({ phone: '5215500000002', first_name: 'Andrés', attributes: { plan: 'free' }, consent: { marketing: 'opted_out' } });
    await create({ phone: '5215500000003', first_name: 'Bea', external_id: 'crm-3' });
    await create({ phone: '5215500000004', first_name: 'Ana' }, theirs);
  });

  it('finds by a name prefix, case- and accent-insensitive, newest first, in the public shape', async () => {
    const page = await search({ and: [{ field: 'first_name', op: 'starts_with', value: 'an' }] });
    expect(page.items.map((item) => item.first_name)).toEqual(['Andrés', 'Ángela']);
    expect(page.items[1]).toMatchObject({ email: 'Angela@Example.com', attributes: { plan: 'pro' }, channel: 'main', conversation_uuid: expect.stringMatching(/^conv:/) });
    expect(page).toMatchObject({ has_more: false, next_cursor: '' });
  });

  it('filters on attributes, consent (unknown included), email and external_id, with and / or', async () => {
    expect(await uuids({ and: [{ field: 'attributes.plan', op: 'eq', value: 'pro' }] })).toEqual(['Ángela']);
    expect(await uuids({ and: [{ field: 'attributes.plan', op: 'neq', value: 'pro' }] })).toEqual(['Bea', 'Andrés']);
    expect(await uuids({ and: [{ field: 'consent.marketing', op: 'eq', value: 'unknown' }] })).toEqual(['Bea', 'Ángela']);
    expect(await uuids({ and: [{ field: 'email', op: 'eq', value: 'ANGELA@example.com' }] })).toEqual(['Ángela']);
    expect(await uuids({ or: [{ field: 'external_id', op: 'eq', value: 'crm-3' }, { field: 'consent.marketing', op: 'eq', value: 'opted_out' }] })).toEqual(['Bea', 'Andrés']);
  });

  it('pages with a cursor bound to the filter: another filter with it is INVALID_CURSOR', async () => {
    const filter = { and: [{ field: 'phone', op: 'starts_with', value: '52155' }] };
    const first = await search(filter, { limit: 2 });
    expect(first.items.map((item) => item.first_name)).toEqual(['Bea', 'Andrés']);
    expect(first.has_more).toBe(true);
    const second = await search(filter, { limit: 2, cursor: first.next_cursor });
    expect(second.items.map((item) => item.first_name)).toEqual(['Ángela']);
    expect(second.has_more).toBe(false);
    await expect(search({ and: [{ field: 'phone', op: 'starts_with', value: '5215' }] }, { cursor: first.next_cursor })).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
  });

  it('answers INVALID_REQUEST for an unknown field, an undefined attribute, an op that does not apply and a wrong value', async () => {
    await expect(search({ and: [{ field: 'nickname', op: 'eq', value: 'x' }] })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(search({ and: [{ field: 'attributes.colour', op: 'eq', value: 'red' }] })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(search({ and: [{ field: 'consent.marketing', op: 'gt', value: 'opted_in' }] })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(search({ and: [{ field: 'attributes.plan', op: 'eq', value: 'gold' }] })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(search({ field: 'first_name', op: 'eq', value: 'Bea' })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  });

  it("never finds another business's contacts", async () => {
    expect(await uuids({ and: [{ field: 'first_name', op: 'eq', value: 'ana' }] })).toEqual([]);
    expect((await search({ and: [{ field: 'first_name', op: 'eq', value: 'ana' }] }, {}, theirs)).items.map((item) => item.first_name)).toEqual(['Ana']);
  });
});
