import { randomBytes } from 'node:crypto';
import { type TestBusiness, contactSeed, createTestBusiness, uniquePhone } from '@cmsg/testing';

type Contact = Record<string, any> & { uuid: string; conversation: { uuid: string } | null };
type Upserted = { contact: Contact; created: boolean };

describe('POST /{slug}/contacts: create or update by identifier (CONTRACT 10.1)', () => {
  let business: TestBusiness;
  const suffix = randomBytes(3).toString('hex');

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      seed.attribute_definitions = [
        { key: 'plan', type: 'list', options: ['free', 'gold'] },
        { key: 'orders', type: 'number' },
        { key: 'note', type: 'text' },
        { key: 'vip', type: 'boolean' },
        { key: 'renewal', type: 'date' },
      ];
    });
  });

  it('creates a contact with its conversation (resolved, no AI, window closed), answering 201 and the full shape', async () => {
    const phone = uniquePhone();
    const created = await business.api.post<Upserted>('/contacts', {
      phone: `${phone.slice(0, 3)} ${phone.slice(3)}`,
      external_id: `crm-${suffix}-1`,
      first_name: 'Ángela',
      last_name: 'Núñez',
      email: 'angela@example.com',
      language: 'es-MX',
      attributes: { plan: 'gold', orders: 3, vip: true, renewal: '2026-03-01', note: 'prefers mornings' },
      consent: { marketing: { status: 'opted_in' } },
    });
    expect(created.status).toBe(201);
    expect(created.body.created).toBe(true);
    const contact = created.body.contact;
    expect(contact).toMatchObject({
      channel: business.channelKey,
      phone,
      chat_id: phone.slice(1),
      email: 'angela@example.com',
      language: 'es-MX',
      external_id: `crm-${suffix}-1`,
      first_name: 'Ángela',
      full_name: 'Ángela Núñez',
      attributes: { plan: 'gold', orders: 3, vip: true, renewal: '2026-03-01', note: 'prefers mornings' },
      acquisition_source: 'api',
      is_tester: false,
    });
    expect(contact.consent.marketing).toMatchObject({ status: 'opted_in', source: 'api' });
    expect(contact.consent.utility).toEqual({ status: 'unknown', source: null, updated_at: null });
    expect(contact.conversation).toEqual({ uuid: expect.any(String) });

    const status = await business.api.post('/conversation/status', { conversation: { uuid: contact.conversation!.uuid } });
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ inbox_status: 'resolved', assignment: { ai_employee: null }, window: { status: 'closed', expires_at: null } });

    const fetched = await business.api.get<Contact>(`/contacts/${contact.uuid}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(contact);
    const listed = await business.api.get<{ items: Contact[] }>('/contacts', { phone });
    expect(listed.body.items).toEqual([contact]);
  });

  it('updates the contact an identifier matches (200, created false), and a repeat changes nothing', async () => {
    const externalId = `crm-${suffix}-2`;
    const phone = uniquePhone();
    const first = await business.api.post<Upserted>('/contacts', { external_id: externalId, phone, first_name: 'Ana' });
    expect(first.status).toBe(201);
    const byExternalId = await business.api.post<Upserted>('/contacts', { external_id: externalId, last_name: 'López', attributes: { orders: 7 } });
    expect(byExternalId.status).toBe(200);
    expect(byExternalId.body).toMatchObject({ created: false, contact: { uuid: first.body.contact.uuid, first_name: 'Ana', last_name: 'López', attributes: { orders: 7 } } });
    const byPhone = await business.api.post<Upserted>('/contacts', { phone, email: 'ana@example.com' });
    expect(byPhone.status).toBe(200);
    expect(byPhone.body.contact).toMatchObject({ uuid: first.body.contact.uuid, email: 'ana@example.com', external_id: externalId });
    const repeat = await business.api.post<Upserted>('/contacts', { phone, email: 'ana@example.com' });
    expect(repeat.body.contact.updated_at).toBe(byPhone.body.contact.updated_at);
  });

  it('matches a seeded contact by chat_user_id before phone, and refuses identifiers naming two contacts', async () => {
    const phoneA = uniquePhone();
    const phoneB = uniquePhone();
    const other = await createTestBusiness((seed) => {
      contactSeed(seed, { phone: phoneA, chat_user_id: `US.a-${suffix}` });
      contactSeed(seed, { phone: phoneB, chat_user_id: `US.b-${suffix}` });
    });
    const [seededA, seededB] = other.seed.contacts!;
    const byUser = await other.api.post<Upserted>('/contacts', { chat_user_id: `US.a-${suffix}`, first_name: 'Alma' });
    expect(byUser.status).toBe(200);
    expect(byUser.body.contact).toMatchObject({ uuid: seededA!.uuid, first_name: 'Alma', conversation: { uuid: seededA!.conversation!.uuid } });
    const conflict = await other.api.post('/contacts', { chat_user_id: `US.a-${suffix}`, phone: phoneB });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('CONTACT_IDENTIFIER_CONFLICT');
    expect((await other.api.get(`/contacts/${seededB!.uuid}`)).body.chat_user_id).toBe(`US.b-${suffix}`);
  });

  it.each([
    ['a phone of 7 digits', { phone: '+1234567' }, 400, 'INVALID_REQUEST'],
    ['a phone of 16 digits', { phone: '+1234567890123456' }, 400, 'INVALID_REQUEST'],
    ['no phone nor chat_user_id for a new contact', { external_id: `nobody-${suffix}` }, 400, 'INVALID_REQUEST'],
    ['an unknown channel', { channel: 'no-such-channel', phone: '+5215500000001' }, 404, 'CHANNEL_NOT_FOUND'],
    ['an undefined attribute', { phone: '+5215500000002', attributes: { tier: 'gold' } }, 422, 'ATTRIBUTE_UNDEFINED'],
    ['a number attribute given text', { phone: '+5215500000003', attributes: { orders: 'three' } }, 400, 'INVALID_REQUEST'],
    ['a list value outside its options', { phone: '+5215500000004', attributes: { plan: 'platinum' } }, 400, 'INVALID_REQUEST'],
    ['a text attribute over 1,024 characters', { phone: '+5215500000005', attributes: { note: 'x'.repeat(1025) } }, 400, 'INVALID_REQUEST'],
    ['a date attribute that is no date', { phone: '+5215500000006', attributes: { renewal: '2026-02-30' } }, 400, 'INVALID_REQUEST'],
    ['a consent status of unknown', { phone: '+5215500000007', consent: { marketing: { status: 'unknown' } } }, 400, 'INVALID_REQUEST'],
    ['an email that is no email', { phone: '+5215500000008', email: 'not-an-email' }, 400, 'INVALID_REQUEST'],
  ])('refuses %s', async (_case, body, status, code) => {
    const response = await business.api.post('/contacts', body);
    expect({ status: response.status, code: response.body.code }).toEqual({ status, code });
    if (code === 'INVALID_REQUEST' && 'attributes' in body) expect(response.body.message).toContain(Object.keys(body.attributes as object)[0]);
  });

  it('needs channel when the business has several, and takes it', async () => {
    const second = `second-${suffix}`;
    const twoChannels = await createTestBusiness((seed) => {
      seed.channels!.push({ public_key: second, name: 'Second', phone: uniquePhone(), phone_number_id: `pn-second-${suffix}`, access_token: 'x' });
    });
    const phone = uniquePhone();
    const withoutChannel = await twoChannels.api.post('/contacts', { phone });
    expect({ status: withoutChannel.status, code: withoutChannel.body.code }).toEqual({ status: 400, code: 'INVALID_REQUEST' });
    const onSecond = await twoChannels.api.post<Upserted>('/contacts', { phone, channel: second });
    expect(onSecond.status).toBe(201);
    expect(onSecond.body.contact.channel).toBe(second);
    // The same phone on the main line is another contact (a contact belongs to one channel).
    const onMain = await twoChannels.api.post<Upserted>('/contacts', { phone, channel: twoChannels.channelKey });
    expect(onMain.status).toBe(201);
    expect(onMain.body.contact.uuid).not.toBe(onSecond.body.contact.uuid);
  });
});
