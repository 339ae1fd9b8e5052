import { randomBytes, randomUUID } from 'node:crypto';
import { generateApiToken } from '@cmsg/seed';
import { type TestBusiness, createTestBusiness, eventually, storedCollection, uniquePhone } from '@cmsg/testing';

type EventItem = { id: string; type: string; conversation: { uuid: string } | null; sequence: number; data: Record<string, any> };

describe('contact events, scopes and concurrent creates (CONTRACT 10.1, 10.2, 9.3)', () => {
  let business: TestBusiness;
  const suffix = randomBytes(3).toString('hex');
  const tokens = { read: generateApiToken(), write: generateApiToken() };

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      seed.attribute_definitions = [{ key: 'plan', type: 'text' }];
      seed.api_tokens!.push({ uuid: randomUUID(), token: tokens.read, scopes: ['conversations:read'] }, { uuid: randomUUID(), token: tokens.write, scopes: ['conversations:write'] });
    });
  });

  const eventsOf = async (type: string): Promise<EventItem[]> => (await business.api.get<{ items: EventItem[] }>('/events', { type, limit: 100 })).body.items;

  it('records contact.created, contact.updated naming the fields, and contact.consent_changed, on the contact\'s conversation', async () => {
    const created = await business.api.post('/contacts', { phone: uniquePhone(), external_id: `ev-${suffix}`, consent: { marketing: { status: 'opted_out' } } });
    const { uuid, conversation } = created.body.contact;
    await business.api.patch(`/contacts/${uuid}`, { first_name: 'Eve', attributes: { plan: 'gold' } });
    await business.api.post('/contacts', { external_id: `ev-${suffix}`, consent: { marketing: { status: 'opted_in' }, utility: { status: 'opted_in' } } });
    const mine = (events: EventItem[]) => events.filter((event) => event.data['contact']?.uuid === uuid);
    const read = async () => {
      const [createdEvents, updatedEvents, consentEvents] = await Promise.all([eventsOf('contact.created'), eventsOf('contact.updated'), eventsOf('contact.consent_changed')]);
      return { created: mine(createdEvents), updated: mine(updatedEvents), consent: mine(consentEvents) };
    };
    const seen = await eventually(read, (events) => events.created.length >= 1 && events.updated.length >= 1 && events.consent.length >= 3);
    expect(seen.created).toEqual([expect.objectContaining({ conversation, data: { contact: { uuid } } })]);
    expect(seen.updated.map((event) => event.data['changed'])).toEqual([['first_name', 'attributes.plan']]);
    expect(seen.consent.map((event) => event.data)).toEqual([
      { contact: { uuid }, category: 'marketing', from: 'unknown', to: 'opted_out', source: 'api' },
      { contact: { uuid }, category: 'marketing', from: 'opted_out', to: 'opted_in', source: 'api' },
      { contact: { uuid }, category: 'utility', from: 'unknown', to: 'opted_in', source: 'api' },
    ]);
    expect(seen.consent.every((event) => event.conversation?.uuid === conversation.uuid && event.sequence > 0)).toBe(true);
  });

  it('gives 20 concurrent creates of one new external_id one contact', async () => {
    const externalId = `race-${suffix}`;
    const phones = Array.from({ length: 20 }, () => uniquePhone());
    const responses = await Promise.all(phones.map((phone, i) => business.api.withToken(i % 2 ? tokens.write : business.token).post('/contacts', { external_id: externalId, phone })));
    expect(responses.map((response) => response.status).sort()).toEqual([...Array(19).fill(200), 201]);
    expect(new Set(responses.map((response) => response.body.contact.uuid)).size).toBe(1);
    expect(await storedCollection('contacts').countDocuments({ business_id: business.businessId, external_id: externalId })).toBe(1);
    const conversations = await storedCollection('conversations').countDocuments({ business_id: business.businessId, contact_id: responses[0]!.body.contact.uuid });
    expect(conversations).toBe(1);
  });

  it('needs conversations:write to write and conversations:read to read; search is a read', async () => {
    const read = business.api.withToken(tokens.read);
    const write = business.api.withToken(tokens.write);
    const contact = (await business.api.post('/contacts', { phone: uniquePhone() })).body.contact;
    const refusals = [
      [await read.post('/contacts', { phone: uniquePhone() }), 'conversations:write'],
      [await read.patch(`/contacts/${contact.uuid}`, { first_name: 'X' }), 'conversations:write'],
      [await read.post('/contact-attributes', { key: 'other', type: 'text' }), 'conversations:write'],
      [await read.delete('/contact-attributes/plan'), 'conversations:write'],
      [await write.get(`/contacts/${contact.uuid}`), 'conversations:read'],
      [await write.get('/contact-attributes'), 'conversations:read'],
      [await write.post('/contacts/search', { filter: { and: [{ field: 'tag', op: 'exists', value: false }] } }), 'conversations:read'],
    ] as const;
    for (const [response, scope] of refusals) {
      expect({ status: response.status, code: response.body.code }).toEqual({ status: 403, code: 'TOKEN_SCOPE_INSUFFICIENT' });
      expect(response.body.message).toContain(scope);
    }
    expect((await read.get(`/contacts/${contact.uuid}`)).status).toBe(200);
    expect((await read.post('/contacts/search', { filter: { and: [{ field: 'tag', op: 'exists', value: false }] } })).status).toBe(200);
    expect((await write.post('/contacts', { phone: uniquePhone() })).status).toBe(201);
  });
});
