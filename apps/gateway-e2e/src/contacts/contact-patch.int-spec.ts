import { randomBytes } from 'node:crypto';
import { type TestBusiness, createTestBusiness, uniquePhone } from '@cmsg/testing';

type Contact = Record<string, any> & { uuid: string };

describe('PATCH /{slug}/contacts/{uuid}: JSON Merge Patch (CONTRACT 10.1)', () => {
  let business: TestBusiness;
  const suffix = randomBytes(3).toString('hex');
  let contact: Contact;

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      seed.attribute_definitions = [
        { key: 'plan', type: 'list', options: ['free', 'gold'] },
        { key: 'orders', type: 'number' },
      ];
    });
    const created = await business.api.post('/contacts', {
      phone: uniquePhone(),
      external_id: `patch-${suffix}`,
      first_name: 'Ana',
      last_name: 'López',
      email: 'ana@example.com',
      attributes: { plan: 'gold', orders: 2 },
    });
    contact = created.body.contact;
  });

  it('sets what is given, removes what is null, keeps what is absent', async () => {
    const patched = await business.api.patch<Contact>(`/contacts/${contact.uuid}`, { last_name: null, language: 'pt-BR', attributes: { orders: null, plan: 'free' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ first_name: 'Ana', last_name: null, full_name: 'Ana', email: 'ana@example.com', language: 'pt-BR', attributes: { plan: 'free' } });
    expect(patched.body.attributes).not.toHaveProperty('orders');
    const cleared = await business.api.patch<Contact>(`/contacts/${contact.uuid}`, { attributes: null });
    expect(cleared.body.attributes).toEqual({});
  });

  it('takes application/merge-patch+json', async () => {
    const response = await business.api.request('PATCH', `/v1/${business.slug}/contacts/${contact.uuid}`, JSON.stringify({ first_name: 'Anita' }), {
      'content-type': 'application/merge-patch+json',
    });
    expect(response.status).toBe(200);
    expect(JSON.parse(JSON.stringify(response.body)).first_name).toBe('Anita');
  });

  it.each([
    ['phone', { phone: '+5215512345678' }, 400, 'INVALID_REQUEST'],
    ['chat_user_id', { chat_user_id: 'US.1' }, 400, 'INVALID_REQUEST'],
    ['an undefined attribute', { attributes: { tier: 'gold' } }, 422, 'ATTRIBUTE_UNDEFINED'],
    ['an attribute of the wrong type', { attributes: { orders: true } }, 400, 'INVALID_REQUEST'],
  ])('refuses %s', async (_case, body, status, code) => {
    const response = await business.api.patch(`/contacts/${contact.uuid}`, body);
    expect({ status: response.status, code: response.body.code }).toEqual({ status, code });
  });

  it('refuses an external_id another contact holds, changing nothing', async () => {
    const other = await business.api.post('/contacts', { phone: uniquePhone(), external_id: `patch-other-${suffix}` });
    const response = await business.api.patch(`/contacts/${contact.uuid}`, { external_id: `patch-other-${suffix}`, first_name: 'Changed' });
    expect({ status: response.status, code: response.body.code }).toEqual({ status: 409, code: 'CONTACT_IDENTIFIER_CONFLICT' });
    expect((await business.api.get(`/contacts/${contact.uuid}`)).body).toMatchObject({ external_id: `patch-${suffix}`, first_name: 'Anita' });
    expect((await business.api.get(`/contacts/${other.body.contact.uuid}`)).body.external_id).toBe(`patch-other-${suffix}`);
  });

  it('frees an external_id removed by null for another contact to take', async () => {
    const holder = await business.api.post('/contacts', { phone: uniquePhone(), external_id: `patch-free-${suffix}` });
    expect((await business.api.patch(`/contacts/${holder.body.contact.uuid}`, { external_id: null })).status).toBe(200);
    const taken = await business.api.patch(`/contacts/${contact.uuid}`, { external_id: `patch-free-${suffix}` });
    expect(taken.status).toBe(200);
    expect(taken.body.external_id).toBe(`patch-free-${suffix}`);
  });

  it('answers 404 CONTACT_NOT_FOUND for an unknown contact and for another business\'s', async () => {
    const unknown = await business.api.patch('/contacts/00000000-0000-4000-8000-000000000000', { first_name: 'X' });
    expect({ status: unknown.status, code: unknown.body.code }).toEqual({ status: 404, code: 'CONTACT_NOT_FOUND' });
    const other = await createTestBusiness();
    for (const response of [await other.api.patch(`/contacts/${contact.uuid}`, { first_name: 'Stolen' }), await other.api.get(`/contacts/${contact.uuid}`)]) {
      expect({ status: response.status, code: response.body.code }).toEqual({ status: 404, code: 'CONTACT_NOT_FOUND' });
    }
    expect((await business.api.get(`/contacts/${contact.uuid}`)).body.first_name).toBe('Anita');
  });
});
