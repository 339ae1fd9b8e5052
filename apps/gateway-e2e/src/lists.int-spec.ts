import { randomUUID } from 'node:crypto';
import { ContactRepository, ConversationRepository, businessScope } from '@cmsg/dal';
import { generateApiToken } from '@cmsg/seed';
import { type ApiClient, type TestBusiness, contactSeed, createTestBusiness, minutesAgo } from '@cmsg/testing';

describe('GET /{slug}/conversations, /contacts, /tester/contacts (SPEC 4.4, 4.6)', () => {
  let business: TestBusiness;
  const order: string[] = [];

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      // Conversations with their last message 1..5 hours ago, one without any message.
      for (let hours = 5; hours >= 1; hours -= 1) {
        const contact = contactSeed(seed, {
          created_at: minutesAgo(600 + hours),
          is_tester: hours === 3,
          conversation: { uuid: randomUUID(), messages: [{ uuid: randomUUID(), is_from_customer: true, body: `msg ${hours}h`, created_at: minutesAgo(hours * 60) }] },
        });
        order.unshift(contact.conversation!.uuid!);
      }
      const empty = contactSeed(seed, { created_at: minutesAgo(24 * 60), conversation: { uuid: randomUUID(), messages: [] } });
      order.push(empty.conversation!.uuid!);
    });
  });

  it('lists conversations most recent first by default, with the list item shape', async () => {
    const response = await business.api.get('/conversations');
    expect(response.status).toBe(200);
    expect(response.body.has_more).toBe(false);
    expect(response.body.next_cursor).toBe('');
    expect(response.body.items.map((item: { uuid: string }) => item.uuid)).toEqual(order);
    const first = response.body.items[0];
    expect(first).toEqual({
      uuid: order[0],
      contact: { uuid: expect.any(String), name: 'Test Contact', profile_name: null, phone: expect.any(String), chat_user_id: null },
      last_message_at: expect.any(String),
      last_message_preview: { body: 'msg 1h', content_type: 'text', is_from_customer: true },
      unread_count: 1,
      mailbox: null,
      ai_employee: null,
      tags: [],
      messaging_window_expires_at: expect.any(String),
      is_tester: false,
      inbox_status: 'resolved',
      updated_at: expect.any(String),
    });
    const empty = response.body.items.at(-1);
    expect(empty.last_message_at).toBeNull();
    expect(empty.last_message_preview).toBeNull();
  });

  it('pages with opaque cursors in both orders', async () => {
    for (const [direction, expected] of [['desc', order], ['asc', [...order].reverse()]] as const) {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await business.api.get('/conversations', { limit: 2, order: direction, cursor });
        expect(page.status).toBe(200);
        seen.push(...page.body.items.map((item: { uuid: string }) => item.uuid));
        cursor = page.body.has_more ? page.body.next_cursor : undefined;
        if (!page.body.has_more) expect(page.body.next_cursor).toBe('');
      } while (cursor);
      expect(seen).toEqual(expected);
    }
  });

  it('rejects bad limits, bad cursors and cursors of another endpoint or order', async () => {
    for (const limit of [0, 101, 'ten']) {
      const response = await business.api.get('/conversations', { limit });
      expect([response.status, response.body.code]).toEqual([400, 'INVALID_REQUEST']);
    }
    const badOrder = await business.api.get('/conversations', { order: 'sideways' });
    expect([badOrder.status, badOrder.body.code]).toEqual([400, 'INVALID_REQUEST']);
    const tooLong = await business.api.get('/conversations', { cursor: 'x'.repeat(513) });
    expect(tooLong.status).toBe(400);
    const garbage = await business.api.get('/conversations', { cursor: 'garbage' });
    expect([garbage.status, garbage.body.code]).toEqual([400, 'INVALID_CURSOR']);

    const page = await business.api.get('/conversations', { limit: 1 });
    const otherEndpoint = await business.api.get('/contacts', { cursor: page.body.next_cursor });
    expect([otherEndpoint.status, otherEndpoint.body.code]).toEqual([400, 'INVALID_CURSOR']);
    const otherOrder = await business.api.get('/conversations', { cursor: page.body.next_cursor, order: 'asc' });
    expect([otherOrder.status, otherOrder.body.code]).toEqual([400, 'INVALID_CURSOR']);
  });

  it('lists contacts newest first, mixing testers, and /tester/contacts lists testers only', async () => {
    const contacts = await business.api.get('/contacts', { limit: 100 });
    expect(contacts.status).toBe(200);
    const createdAt = contacts.body.items.map((item: { created_at: string }) => Date.parse(item.created_at));
    expect(createdAt).toEqual([...createdAt].sort((a, b) => b - a));
    expect(contacts.body.items).toHaveLength(6);
    expect(contacts.body.items[0]).toEqual({
      uuid: expect.any(String),
      first_name: 'Test',
      middle_name: null,
      last_name: 'Contact',
      second_last_name: null,
      full_name: 'Test Contact',
      chat_id: expect.stringMatching(/^\d+$/),
      chat_user_id: null,
      chat_username: null,
      acquisition_source: null,
      is_tester: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      // CONTRACT 10.1: the fields every contact now carries.
      channel: business.channelKey,
      phone: expect.stringMatching(/^\+\d+$/),
      email: null,
      language: null,
      external_id: null,
      attributes: {},
      consent: { marketing: { status: 'unknown', source: null, updated_at: null }, utility: { status: 'unknown', source: null, updated_at: null } },
      conversation: { uuid: expect.any(String) },
    });
    const testers = await business.api.get('/tester/contacts');
    expect(testers.body.items.map((item: { is_tester: boolean }) => item.is_tester)).toEqual([true]);
    expect(testers.body.has_more).toBe(false);
  });
});

describe('keyset pagination over 10,000 conversations while rows are inserted', () => {
  it('returns every row exactly once', async () => {
    const extraTokens = [generateApiToken(), generateApiToken()];
    const business = await createTestBusiness((seed) => {
      seed.api_tokens!.push(...extraTokens.map((token) => ({ uuid: randomUUID(), token })));
    });
    const scope = businessScope(business.businessId);
    const contactsRepository = new ContactRepository();
    const conversationsRepository = new ConversationRepository();
    const base = Date.now() - 3_600_000;
    const original = new Set<string>();
    const batch = 1000;
    for (let start = 0; start < 10_000; start += batch) {
      const contacts = [];
      const conversations = [];
      for (let index = start; index < start + batch; index += 1) {
        const contactId = randomUUID();
        const conversationId = randomUUID();
        original.add(conversationId);
        // Groups of 10 share a timestamp, so the uuid tie-break is exercised.
        const at = new Date(base + Math.floor(index / 10) * 1000);
        contacts.push({ _id: contactId, channel_id: 'c', phone: null, created_at: at, updated_at: at });
        conversations.push({ _id: conversationId, contact_id: contactId, channel_id: 'c', sort_at: at, created_at: at, updated_at: at });
      }
      await contactsRepository.insertMany(scope, contacts);
      await conversationsRepository.insertMany(scope, conversations);
    }

    const clients: ApiClient[] = [business.api, ...extraTokens.map((token) => business.api.withToken(token))];
    const seen = new Map<string, number>();
    let cursor: string | undefined;
    let pages = 0;
    let inserted = 0;
    do {
      const page = await clients[pages % clients.length]!.get('/conversations', { limit: 100, cursor });
      expect(page.status).toBe(200);
      for (const item of page.body.items as { uuid: string }[]) seen.set(item.uuid, (seen.get(item.uuid) ?? 0) + 1);
      cursor = page.body.has_more ? page.body.next_cursor : undefined;
      pages += 1;
      // Meanwhile new conversations arrive, both newer than everything and in the middle of the range.
      const newer = randomUUID();
      const middle = new Date(base + Math.floor(Math.random() * 1000) * 1000);
      for (const at of [new Date(), middle]) {
        const contactId = randomUUID();
        await contactsRepository.insertIfAbsent(scope, { _id: contactId, channel_id: 'c', created_at: at, updated_at: at });
        await conversationsRepository.createIfAbsent(scope, { _id: at === middle ? randomUUID() : newer, contact_id: contactId, channel_id: 'c', sort_at: at, created_at: at, updated_at: at });
        inserted += 1;
      }
    } while (cursor);

    const duplicates = [...seen.values()].filter((count) => count > 1).length;
    const missing = [...original].filter((id) => !seen.has(id)).length;
    expect({ duplicates, missing, pagesAtLeast: pages >= 100 }).toEqual({ duplicates: 0, missing: 0, pagesAtLeast: true });
    expect(inserted).toBeGreaterThan(0);
  }, 900_000);
});
