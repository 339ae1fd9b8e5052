import { randomBytes } from 'node:crypto';
import { ContactRepository, businessScope } from '@cmsg/dal';
import { type ContactSeedInput, type TestBusiness, contactSeed, createTestBusiness, minutesAgo, uniquePhone } from '@cmsg/testing';

type ContactPage = { items: { uuid: string; updated_at: string }[]; has_more: boolean; next_cursor: string };

/** `+52155...` written the way a person would: `+52 1 (55) ...-....`. */
function formatted(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return `+${digits.slice(0, 2)} ${digits.slice(2, 3)} (${digits.slice(3, 5)}) ${digits.slice(5, 9)}-${digits.slice(9)}`;
}

describe('GET /{slug}/contacts filters (CONTRACT 9.1)', () => {
  let business: TestBusiness;
  const suffix = randomBytes(3).toString('hex');
  const sharedPhone = uniquePhone();
  const testerPhone = uniquePhone();
  const chatUserId = `US.${suffix}`;
  const username = `JuanPerez_${suffix}`;
  // A, B, C share a phone (A and C on the main line, B on the second); A and D share a platform user
  // id and a username (in another case); E is a tester. Created 50, 40, 30, 20, 10 minutes ago.
  const contacts = {} as Record<'a' | 'b' | 'c' | 'd' | 'e', ContactSeedInput>;
  let updatedAt: Date;

  const list = async (query: Record<string, string | number | undefined>, path = '/contacts'): Promise<ContactPage> => {
    const response = await business.api.get<ContactPage>(path, query);
    expect({ query, status: response.status }).toEqual({ query, status: 200 });
    return response.body;
  };
  const uuidsOf = async (query: Record<string, string | number | undefined>, path = '/contacts') => (await list(query, path)).items.map((item) => item.uuid);

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      seed.channels!.push({ public_key: `second-${suffix}`, name: 'Second line', phone: uniquePhone(), phone_number_id: `pn2-${suffix}`, access_token: 'x' });
      const second = `second-${suffix}`;
      contacts.a = contactSeed(seed, { phone: sharedPhone, chat_user_id: chatUserId, chat_username: username, created_at: minutesAgo(50) });
      contacts.b = contactSeed(seed, { channel: second, phone: sharedPhone, chat_user_id: `US.b-${suffix}`, created_at: minutesAgo(40) });
      contacts.c = contactSeed(seed, { phone: sharedPhone, created_at: minutesAgo(30) });
      contacts.d = contactSeed(seed, { channel: second, chat_user_id: chatUserId, chat_username: `@${username.toLowerCase()}`, created_at: minutesAgo(20) });
      contacts.e = contactSeed(seed, { phone: testerPhone, is_tester: true, created_at: minutesAgo(10) });
    });
    // A seeded contact is updated when created; the oldest one changes now, at a known instant.
    updatedAt = new Date(Date.now() - 60_000 + 123);
    await new ContactRepository().updateFields(businessScope(business.businessId), contacts.a.uuid, { acquisition_source: 'crm' }, updatedAt);
  });

  it('lists every contact without filters, newest first', async () => {
    expect(await uuidsOf({})).toEqual([contacts.e, contacts.d, contacts.c, contacts.b, contacts.a].map((contact) => contact.uuid));
  });

  it('finds by phone, by its digits whatever the spelling, across channels', async () => {
    const expected = [contacts.c, contacts.b, contacts.a].map((contact) => contact.uuid);
    expect(await uuidsOf({ phone: sharedPhone })).toEqual(expected);
    expect(await uuidsOf({ phone: formatted(sharedPhone) })).toEqual(expected);
    expect(await uuidsOf({ phone: sharedPhone.replace('+', '') })).toEqual(expected);
  });

  it('finds by chat_user_id exactly', async () => {
    expect(await uuidsOf({ chat_user_id: chatUserId })).toEqual([contacts.d.uuid, contacts.a.uuid]);
    expect(await uuidsOf({ chat_user_id: chatUserId.toLowerCase() })).toEqual([]);
  });

  it('finds by username with or without @, case-insensitively', async () => {
    for (const spelling of [username, `@${username}`, `@${username.toUpperCase()}`, username.toLowerCase()]) {
      expect(await uuidsOf({ username: spelling })).toEqual([contacts.d.uuid, contacts.a.uuid]);
    }
  });

  it('keeps contacts updated at or after updated_since, still newest-created first', async () => {
    const updatedAtMs = updatedAt.getTime();
    expect(await uuidsOf({ updated_since: updatedAt.toISOString() })).toEqual([contacts.a.uuid]);
    expect((await list({ updated_since: updatedAt.toISOString() })).items[0]!.updated_at).toBe(updatedAt.toISOString());
    expect(await uuidsOf({ updated_since: new Date(updatedAtMs + 1).toISOString() })).toEqual([]);
    // The same instant with an offset, and a finer one just past it.
    const plusOneHour = new Date(updatedAtMs + 3_600_000).toISOString().replace('Z', '+01:00');
    expect(await uuidsOf({ updated_since: plusOneHour })).toEqual([contacts.a.uuid]);
    expect(await uuidsOf({ updated_since: updatedAt.toISOString().replace('Z', '001Z') })).toEqual([]);
    // D (created and updated 20 minutes ago) and E (10) are after; B and C are not; A was updated later.
    expect(await uuidsOf({ updated_since: contacts.d.created_at })).toEqual([contacts.e.uuid, contacts.d.uuid, contacts.a.uuid]);
  });

  it('combines filters with AND', async () => {
    expect(await uuidsOf({ phone: formatted(sharedPhone), chat_user_id: chatUserId })).toEqual([contacts.a.uuid]);
    expect(await uuidsOf({ phone: sharedPhone, chat_user_id: `US.b-${suffix}` })).toEqual([contacts.b.uuid]);
    expect(await uuidsOf({ username: `@${username}`, updated_since: updatedAt.toISOString() })).toEqual([contacts.a.uuid]);
    expect(await uuidsOf({ username, chat_user_id: chatUserId, phone: sharedPhone })).toEqual([contacts.a.uuid]);
    expect(await uuidsOf({ phone: sharedPhone, updated_since: contacts.c.created_at })).toEqual([contacts.c.uuid, contacts.a.uuid]);
    expect(await uuidsOf({ phone: testerPhone, chat_user_id: chatUserId })).toEqual([]);
  });

  it('answers a lookup that matches nothing with 200 and an empty page', async () => {
    for (const query of [{ phone: uniquePhone() }, { phone: 'no digits' }, { chat_user_id: 'US.nobody' }, { username: '@' }, { username: 'nobody' }]) {
      expect(await list(query)).toEqual({ items: [], has_more: false, next_cursor: '' });
    }
  });

  it('pages with the filters, and the cursor accepts the same filters in another spelling', async () => {
    const seen: string[] = [];
    let page = await list({ phone: sharedPhone, limit: 1 });
    seen.push(...page.items.map((item) => item.uuid));
    page = await list({ phone: formatted(sharedPhone), limit: 1, cursor: page.next_cursor });
    seen.push(...page.items.map((item) => item.uuid));
    page = await list({ phone: sharedPhone, limit: 1, cursor: page.next_cursor });
    seen.push(...page.items.map((item) => item.uuid));
    expect(seen).toEqual([contacts.c, contacts.b, contacts.a].map((contact) => contact.uuid));
    expect([page.has_more, page.next_cursor]).toEqual([false, '']);

    const updated = await list({ updated_since: contacts.d.created_at, limit: 2 });
    expect(updated.has_more).toBe(true);
    expect(await uuidsOf({ updated_since: contacts.d.created_at, limit: 2, cursor: updated.next_cursor })).toEqual([contacts.a.uuid]);
  });

  it('refuses a cursor used with other filters: 400 INVALID_CURSOR', async () => {
    const first = await list({ phone: sharedPhone, limit: 1 });
    const unfiltered = await list({ limit: 1 });
    for (const [query, path] of [
      [{ phone: testerPhone }, '/contacts'],
      [{}, '/contacts'],
      [{ phone: sharedPhone, chat_user_id: chatUserId }, '/contacts'],
      [{ phone: sharedPhone, updated_since: contacts.a.created_at }, '/contacts'],
      [{ phone: sharedPhone }, '/tester/contacts'],
    ] as const) {
      const response = await business.api.get(path, { ...query, limit: 1, cursor: first.next_cursor });
      expect({ query, path, status: response.status, code: response.body.code }).toEqual({ query, path, status: 400, code: 'INVALID_CURSOR' });
    }
    const filteredLater = await business.api.get('/contacts', { phone: sharedPhone, limit: 1, cursor: unfiltered.next_cursor });
    expect([filteredLater.status, filteredLater.body.code]).toEqual([400, 'INVALID_CURSOR']);
  });

  it('applies the same filters to /tester/contacts', async () => {
    expect(await uuidsOf({ phone: formatted(testerPhone) }, '/tester/contacts')).toEqual([contacts.e.uuid]);
    expect(await uuidsOf({ phone: sharedPhone }, '/tester/contacts')).toEqual([]);
    expect(await uuidsOf({ updated_since: contacts.d.created_at }, '/tester/contacts')).toEqual([contacts.e.uuid]);
  });

  it.each([
    ['updated_since without an offset', { updated_since: '2025-01-31T18:00:00' }],
    ['updated_since that is no date', { updated_since: 'yesterday' }],
    ['an empty phone', { phone: '' }],
  ])('is 400 INVALID_REQUEST for %s', async (_case, query) => {
    const response = await business.api.get('/contacts', query);
    expect([response.status, response.body.code]).toEqual([400, 'INVALID_REQUEST']);
  });
});
