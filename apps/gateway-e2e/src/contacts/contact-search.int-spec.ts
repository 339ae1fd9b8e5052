import { randomBytes, randomUUID } from 'node:crypto';
import { type TestBusiness, contactSeed, createTestBusiness, minutesAgo, uniquePhone } from '@cmsg/testing';

type Page = { items: { uuid: string }[]; has_more: boolean; next_cursor: string };

describe('POST /{slug}/contacts/search (CONTRACT 10.1)', () => {
  let business: TestBusiness;
  const suffix = randomBytes(3).toString('hex');
  const vip = randomUUID();
  const late = randomUUID();
  const uuids = {} as Record<'ana' | 'bea' | 'carla' | 'dora' | 'eva', string>;

  const search = async (filter: unknown, extra: Record<string, unknown> = {}) => {
    const response = await business.api.post<Page>('/contacts/search', { filter, ...extra });
    expect({ filter, status: response.status, body: response.status === 200 ? 'page' : response.body }).toEqual({ filter, status: 200, body: 'page' });
    return response.body;
  };
  const found = async (filter: unknown) => (await search(filter)).items.map((item) => item.uuid);

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      seed.tags = [
        { uuid: vip, name: 'VIP', color: '#f00' },
        { uuid: late, name: 'Late payer', color: '#00f' },
      ];
      seed.attribute_definitions = [
        { key: 'plan', type: 'list', options: ['free', 'gold'] },
        { key: 'orders', type: 'number' },
        { key: 'renewal', type: 'date' },
      ];
      const at = (minutes: number) => minutesAgo(minutes);
      uuids.ana = contactSeed(seed, { first_name: 'Ána', email: 'ana@shop.example', external_id: `s-${suffix}-a`, attributes: { plan: 'gold', orders: 12, renewal: '2026-03-01' }, created_at: at(50), conversation: { tags: [vip], inbox_status: 'pending', messages: [] } }).uuid;
      uuids.bea = contactSeed(seed, { first_name: 'Bea', email: 'bea@mail.example', external_id: `s-${suffix}-b`, attributes: { plan: 'gold', orders: 2 }, created_at: at(40), consent: { marketing: { status: 'opted_out' } }, conversation: { tags: [vip, late], messages: [] } }).uuid;
      uuids.carla = contactSeed(seed, { first_name: 'Carla', email: 'CARLA@shop.example', attributes: { plan: 'free' }, created_at: at(30), conversation: { tags: [], messages: [] } }).uuid;
      uuids.dora = contactSeed(seed, { first_name: 'Dora', phone: '+5215599990000', created_at: at(20), conversation: { tags: [late], messages: [{ is_from_customer: true, body: 'hola', created_at: at(5) }] } }).uuid;
      uuids.eva = contactSeed(seed, { first_name: 'Eva', created_at: at(10), consent: { marketing: { status: 'opted_in' }, utility: { status: 'opted_out' } } }).uuid;
    });
  });

  it('finds by an attribute AND a tag, newest first', async () => {
    expect(await found({ and: [{ field: 'attributes.plan', op: 'eq', value: 'gold' }, { field: 'tag', op: 'eq', value: vip }] })).toEqual([uuids.bea, uuids.ana]);
  });

  it('serves every field the language names', async () => {
    expect(await found({ and: [{ field: 'first_name', op: 'starts_with', value: 'an' }] })).toEqual([uuids.ana]);
    expect(await found({ and: [{ field: 'email', op: 'starts_with', value: 'carla@' }] })).toEqual([uuids.carla]);
    expect(await found({ and: [{ field: 'email', op: 'in', value: ['ANA@shop.example', 'bea@mail.example'] }] })).toEqual([uuids.bea, uuids.ana]);
    expect(await found({ and: [{ field: 'external_id', op: 'eq', value: `s-${suffix}-b` }] })).toEqual([uuids.bea]);
    expect(await found({ and: [{ field: 'phone', op: 'eq', value: '+52 1 55 9999 0000' }] })).toEqual([uuids.dora]);
    expect(await found({ and: [{ field: 'attributes.orders', op: 'gte', value: 10 }] })).toEqual([uuids.ana]);
    expect(await found({ and: [{ field: 'attributes.renewal', op: 'lt', value: '2026-04-01' }] })).toEqual([uuids.ana]);
    expect(await found({ and: [{ field: 'attributes.plan', op: 'exists', value: false }] })).toEqual([uuids.eva, uuids.dora]);
    expect(await found({ and: [{ field: 'tag', op: 'nin', value: [vip] }, { field: 'tag', op: 'exists', value: true }] })).toEqual([uuids.dora]);
    expect(await found({ and: [{ field: 'inbox_status', op: 'eq', value: 'pending' }] })).toEqual([uuids.ana]);
    expect(await found({ and: [{ field: 'consent.marketing', op: 'eq', value: 'unknown' }] })).toEqual([uuids.dora, uuids.carla, uuids.ana]);
    expect(await found({ and: [{ field: 'consent.marketing', op: 'neq', value: 'opted_out' }, { field: 'consent.utility', op: 'neq', value: 'opted_out' }] })).toEqual([
      uuids.dora,
      uuids.carla,
      uuids.ana,
    ]);
    expect(await found({ and: [{ field: 'last_inbound_at', op: 'exists', value: true }] })).toEqual([uuids.dora]);
    expect(await found({ and: [{ field: 'created_at', op: 'lt', value: minutesAgo(35) }] })).toEqual([uuids.bea, uuids.ana]);
    expect(await found({ or: [{ field: 'first_name', op: 'eq', value: 'eva' }, { and: [{ field: 'attributes.plan', op: 'eq', value: 'free' }] }] })).toEqual([uuids.eva, uuids.carla]);
  });

  it('pages with a cursor bound to its filter', async () => {
    const filter = { or: [{ field: 'tag', op: 'in', value: [vip, late] }] };
    const first = await search(filter, { limit: 2 });
    expect(first.items.map((item) => item.uuid)).toEqual([uuids.dora, uuids.bea]);
    expect(first.has_more).toBe(true);
    const second = await search(filter, { limit: 2, cursor: first.next_cursor });
    expect(second).toEqual({ items: [expect.objectContaining({ uuid: uuids.ana })], has_more: false, next_cursor: '' });
    const other = await business.api.post('/contacts/search', { filter: { or: [{ field: 'tag', op: 'in', value: [vip] }] }, limit: 2, cursor: first.next_cursor });
    expect({ status: other.status, code: other.body.code }).toEqual({ status: 400, code: 'INVALID_CURSOR' });
  });

  it.each([
    ['an unknown field', { and: [{ field: 'nickname', op: 'eq', value: 'x' }] }, 'nickname'],
    ['an undefined attribute', { and: [{ field: 'attributes.tier', op: 'eq', value: 'x' }] }, '"tier"'],
    ['an op the field does not take', { and: [{ field: 'inbox_status', op: 'gt', value: 'pending' }] }, 'op'],
    ['a value of the wrong type', { and: [{ field: 'attributes.orders', op: 'eq', value: 'many' }] }, 'value'],
    ['three levels', { and: [{ or: [{ and: [{ field: 'first_name', op: 'eq', value: 'a' }] }] }] }, 'filter'],
    ['21 conditions', { or: Array.from({ length: 21 }, () => ({ field: 'first_name', op: 'eq', value: 'a' })) }, 'filter'],
    ['an in of 101 values', { and: [{ field: 'external_id', op: 'in', value: Array.from({ length: 101 }, (_, i) => `x${i}`) }] }, 'value'],
  ])('refuses %s with 400 INVALID_REQUEST naming it', async (_case, filter, named) => {
    const response = await business.api.post('/contacts/search', { filter });
    expect({ status: response.status, code: response.body.code }).toEqual({ status: 400, code: 'INVALID_REQUEST' });
    expect(response.body.message).toContain(named);
  });

  it('never finds another business\'s contacts', async () => {
    const other = await createTestBusiness((seed) => {
      seed.attribute_definitions = [{ key: 'plan', type: 'list', options: ['free', 'gold'] }];
      contactSeed(seed, { phone: uniquePhone(), attributes: { plan: 'gold' } });
    });
    const page = await other.api.post<Page>('/contacts/search', { filter: { and: [{ field: 'attributes.plan', op: 'eq', value: 'gold' }] } });
    expect(page.body.items.map((item) => item.uuid)).toEqual([other.seed.contacts![0]!.uuid]);
    const byTag = await other.api.post<Page>('/contacts/search', { filter: { and: [{ field: 'tag', op: 'eq', value: vip }] } });
    expect(byTag.body.items).toEqual([]);
  });
});
