import { type TestBusiness, createTestBusiness, uniquePhone } from '@cmsg/testing';

describe('contact attribute definitions (CONTRACT 10.1)', () => {
  let business: TestBusiness;

  beforeAll(async () => {
    business = await createTestBusiness();
  });

  it('defines, lists oldest first, and refuses a key defined twice', async () => {
    const plan = await business.api.post('/contact-attributes', { key: 'plan', type: 'list', options: ['free', 'gold'] });
    expect(plan.status).toBe(201);
    expect(plan.body).toEqual({ key: 'plan', type: 'list', options: ['free', 'gold'], created_at: expect.any(String) });
    expect((await business.api.post('/contact-attributes', { key: 'orders', type: 'number' })).status).toBe(201);
    const again = await business.api.post('/contact-attributes', { key: 'plan', type: 'text' });
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 409, code: 'ATTRIBUTE_ALREADY_DEFINED' });
    const listed = await business.api.get('/contact-attributes');
    expect(listed.body.items.map((definition: { key: string }) => definition.key)).toEqual(['plan', 'orders']);
  });

  it.each([
    ['a key with capitals', { key: 'Plan', type: 'text' }],
    ['a key starting with a digit', { key: '1plan', type: 'text' }],
    ['a key of 41 characters', { key: `a${'b'.repeat(40)}`, type: 'text' }],
    ['an unknown type', { key: 'size', type: 'color' }],
    ['a list without options', { key: 'size', type: 'list' }],
    ['a list with 51 options', { key: 'size', type: 'list', options: Array.from({ length: 51 }, (_, i) => `o${i}`) }],
    ['options on a text attribute', { key: 'size', type: 'text', options: ['a'] }],
    ['repeated options', { key: 'size', type: 'list', options: ['a', 'a'] }],
  ])('refuses %s with 400 INVALID_REQUEST', async (_case, body) => {
    const response = await business.api.post('/contact-attributes', body);
    expect({ status: response.status, code: response.body.code }).toEqual({ status: 400, code: 'INVALID_REQUEST' });
  });

  it('holds at most 100 definitions per business', async () => {
    const full = await createTestBusiness((seed) => {
      seed.attribute_definitions = Array.from({ length: 100 }, (_, i) => ({ key: `field_${i}`, type: 'text' as const }));
    });
    const response = await full.api.post('/contact-attributes', { key: 'one_more', type: 'text' });
    expect({ status: response.status, code: response.body.code }).toEqual({ status: 409, code: 'ATTRIBUTE_LIMIT_REACHED' });
    expect((await full.api.get('/contact-attributes')).body.items).toHaveLength(100);
  });

  it('removes a definition with every value of it; a key defined again starts empty', async () => {
    expect((await business.api.post('/contact-attributes', { key: 'tier', type: 'text' })).status).toBe(201);
    const created = await business.api.post('/contacts', { phone: uniquePhone(), attributes: { tier: 'old', orders: 4 } });
    expect(created.body.contact.attributes).toEqual({ tier: 'old', orders: 4 });
    const removed = await business.api.delete('/contact-attributes/tier');
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ key: 'tier', type: 'text' });
    expect((await business.api.get(`/contacts/${created.body.contact.uuid}`)).body.attributes).toEqual({ orders: 4 });
    const twice = await business.api.delete('/contact-attributes/tier');
    expect({ status: twice.status, code: twice.body.code }).toEqual({ status: 422, code: 'ATTRIBUTE_UNDEFINED' });
    expect((await business.api.post('/contacts', { phone: uniquePhone(), attributes: { tier: 'x' } })).body.code).toBe('ATTRIBUTE_UNDEFINED');
    expect((await business.api.post('/contact-attributes', { key: 'tier', type: 'number' })).status).toBe(201);
    expect((await business.api.get(`/contacts/${created.body.contact.uuid}`)).body.attributes).toEqual({ orders: 4 });
  });

  it('keeps each business\'s definitions to itself', async () => {
    const other = await createTestBusiness();
    expect((await other.api.get('/contact-attributes')).body.items).toEqual([]);
    const response = await other.api.delete('/contact-attributes/plan');
    expect(response.body.code).toBe('ATTRIBUTE_UNDEFINED');
    expect((await business.api.get('/contact-attributes')).body.items.map((definition: { key: string }) => definition.key)).toContain('plan');
  });
});
