import { randomUUID } from 'node:crypto';
import { generateApiToken } from '@cmsg/seed';
import { type ApiClient, type ApiResponse, type TestBusiness, contactSeed, createTestBusiness, eventually, fakeWamid, inboundTextWebhook, minutesAgo, uniquePhone } from '@cmsg/testing';
import { channelOf, deliverWebhook } from './inbound/inbound-fixtures';

const DAY_SECONDS = 24 * 3600;

describe('GET /{slug}/conversations filters (CONTRACT 9.1)', () => {
  let business: TestBusiness;
  let clients: ApiClient[];
  let turn = 0;
  const tags = { vip: randomUUID(), wholesale: randomUUID() };
  const mailbox = randomUUID();
  const ai = randomUUID();
  const phoneOfC = uniquePhone();
  // a: pending, both tags, mailbox, AI, window open.  b: resolved, vip, window closed.
  // c: pending, mailbox, never wrote.  d: resolved, wholesale, AI, window open.
  // Tester conversations on a tester clock two days ahead: stale wrote an hour ago (real time), so
  // its window is closed on that clock; fresh writes at the virtual now.
  const ids = { a: randomUUID(), b: randomUUID(), c: randomUUID(), d: randomUUID(), stale: randomUUID(), fresh: '' };
  const real = () => [ids.a, ids.b, ids.c, ids.d];

  /** The tokens take turns: these tests send more than one token's 60 requests a minute. */
  const api = () => clients[turn++ % clients.length]!;
  const list = async (query: Record<string, string | number | readonly string[] | undefined>): Promise<string[]> => {
    const response = await api().get('/conversations', { limit: 100, ...query });
    expect(response.status).toBe(200);
    expect(response.body.has_more).toBe(false);
    return (response.body.items as { uuid: string }[]).map((item) => item.uuid).sort();
  };
  const same = (...uuids: string[]) => [...uuids].sort();

  beforeAll(async () => {
    const extraTokens = [generateApiToken(), generateApiToken(), generateApiToken()];
    business = await createTestBusiness((seed) => {
      seed.api_tokens!.push(...extraTokens.map((token) => ({ uuid: randomUUID(), token })));
      seed.tags = [
        { uuid: tags.vip, name: 'vip', color: '#f00' },
        { uuid: tags.wholesale, name: 'wholesale', color: '#0f0' },
      ];
      seed.mailbox_categories = [{ uuid: randomUUID(), name: 'Sales', mailboxes: [{ uuid: mailbox, name: 'Inbox' }] }];
      seed.ai_employees = [{ uuid: ai, name: 'Ava', model: 'gpt-test', wallet_tokens: 100 }];
      const wrote = (minutes: number) => [{ uuid: randomUUID(), is_from_customer: true, body: 'hola', created_at: minutesAgo(minutes) }];
      contactSeed(seed, { conversation: { uuid: ids.a, inbox_status: 'pending', tags: [tags.vip, tags.wholesale], mailbox, ai_employee: ai, messages: wrote(60) } });
      contactSeed(seed, { conversation: { uuid: ids.b, inbox_status: 'resolved', tags: [tags.vip], messages: wrote(30 * 60) } });
      contactSeed(seed, { phone: phoneOfC, conversation: { uuid: ids.c, inbox_status: 'pending', mailbox, messages: [] } });
      contactSeed(seed, { conversation: { uuid: ids.d, inbox_status: 'resolved', tags: [tags.wholesale], ai_employee: ai, messages: wrote(120) } });
      contactSeed(seed, { is_tester: true, conversation: { uuid: ids.stale, messages: wrote(60) } });
    });
    clients = [business.api, ...extraTokens.map((token) => business.api.withToken(token))];
    expect((await api().post('/tester/clock', { advance_seconds: 2 * DAY_SECONDS })).status).toBe(200);
    const fresh = await api().post('/tester/contacts', {});
    ids.fresh = fresh.body.conversation.uuid;
    expect((await api().post('/tester/inbound', { conversation: { uuid: ids.fresh }, text: 'hola' })).status).toBe(201);
  });

  it('adds inbox_status and updated_at to the items', async () => {
    const response = await api().get('/conversations', { limit: 100 });
    const items = response.body.items as { uuid: string; inbox_status: string; updated_at: string }[];
    expect(items.map((item) => item.uuid).sort()).toEqual(same(...real(), ids.stale, ids.fresh));
    expect(items.find((item) => item.uuid === ids.a)).toMatchObject({ inbox_status: 'pending', updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(items.find((item) => item.uuid === ids.b)!.inbox_status).toBe('resolved');
  });

  it('filters by inbox status, tag (every repeated tag), mailbox and AI employee (or none)', async () => {
    expect(await list({ inbox_status: 'pending' })).toEqual(same(ids.a, ids.c));
    expect(await list({ inbox_status: 'resolved' })).toEqual(same(ids.b, ids.d, ids.stale, ids.fresh));
    expect(await list({ tag: tags.vip })).toEqual(same(ids.a, ids.b));
    expect(await list({ tag: [tags.vip, tags.wholesale] })).toEqual(same(ids.a));
    expect(await list({ tag: [tags.wholesale, tags.wholesale] })).toEqual(same(ids.a, ids.d));
    expect(await list({ tag: randomUUID() })).toEqual([]);
    expect(await list({ mailbox })).toEqual(same(ids.a, ids.c));
    expect(await list({ ai_employee: ai })).toEqual(same(ids.a, ids.d));
    expect(await list({ ai_employee: 'none' })).toEqual(same(ids.b, ids.c, ids.stale, ids.fresh));
  });

  it('filters by tester and by the 24 h window, tester conversations on their virtual clock', async () => {
    expect(await list({ is_tester: 'true' })).toEqual(same(ids.stale, ids.fresh));
    expect(await list({ is_tester: 'false' })).toEqual(same(...real()));
    expect(await list({ window: 'open' })).toEqual(same(ids.a, ids.d, ids.fresh));
    expect(await list({ window: 'closed' })).toEqual(same(ids.b, ids.c, ids.stale));
    expect(await list({ window: 'open', is_tester: 'true' })).toEqual(same(ids.fresh));
    expect(await list({ window: 'closed', is_tester: 'true' })).toEqual(same(ids.stale));
    expect(await list({ window: 'open', is_tester: 'false' })).toEqual(same(ids.a, ids.d));
    // The same answer as the status snapshot of each.
    for (const uuid of [ids.stale, ids.fresh, ids.b]) {
      const status = await api().post('/conversation/status', { conversation: { uuid } });
      expect((await list({ window: status.body.window.status })).includes(uuid)).toBe(true);
    }
  });

  it('combines filters with AND', async () => {
    expect(await list({ inbox_status: 'pending', mailbox, tag: tags.vip })).toEqual(same(ids.a));
    expect(await list({ inbox_status: 'resolved', ai_employee: ai, window: 'open' })).toEqual(same(ids.d));
    expect(await list({ inbox_status: 'pending', ai_employee: 'none' })).toEqual(same(ids.c));
    expect(await list({ tag: tags.wholesale, ai_employee: 'none' })).toEqual([]);
    expect(await list({ tag: tags.vip, window: 'closed', is_tester: 'false', inbox_status: 'resolved' })).toEqual(same(ids.b));
    expect(await list({ mailbox, window: 'closed', updated_since: '2000-01-01T00:00:00Z' })).toEqual(same(ids.c));
  });

  it('pages a filtered list in both orders, and binds its cursor to the filters', async () => {
    for (const order of ['desc', 'asc'] as const) {
      const whole = await api().get('/conversations', { inbox_status: 'resolved', order, limit: 100 });
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await api().get('/conversations', { inbox_status: 'resolved', order, limit: 1, cursor });
        expect(page.status).toBe(200);
        seen.push(...(page.body.items as { uuid: string }[]).map((item) => item.uuid));
        cursor = page.body.has_more ? page.body.next_cursor : undefined;
      } while (cursor);
      expect(seen).toEqual((whole.body.items as { uuid: string }[]).map((item) => item.uuid));
    }

    const filtered = await api().get('/conversations', { tag: [tags.vip, tags.wholesale], inbox_status: 'pending', limit: 1 });
    expect(filtered.body.items).toHaveLength(1);
    const first = await api().get('/conversations', { inbox_status: 'pending', limit: 1 });
    const cursor = first.body.next_cursor as string;
    expect((await api().get('/conversations', { inbox_status: 'pending', limit: 1, cursor })).status).toBe(200);
    const refused = (response: ApiResponse) => expect([response.status, response.body.code]).toEqual([400, 'INVALID_CURSOR']);
    refused(await api().get('/conversations', { inbox_status: 'resolved', cursor }));
    refused(await api().get('/conversations', { cursor }));
    refused(await api().get('/conversations', { inbox_status: 'pending', tag: tags.vip, cursor }));
    refused(await api().get('/conversations', { inbox_status: 'pending', window: 'open', cursor }));
    const unfiltered = (await api().get('/conversations', { limit: 1 })).body.next_cursor as string;
    refused(await api().get('/conversations', { is_tester: 'false', cursor: unfiltered }));
    // The same filters written another way are the same filters.
    const vip = (await api().get('/conversations', { tag: tags.vip, limit: 1 })).body.next_cursor as string;
    expect((await api().get('/conversations', { tag: [tags.vip, tags.vip], limit: 1, cursor: vip })).status).toBe(200);
  });

  // A filter value out of its range is 400 INVALID_REQUEST: apps/gateway/src/routes/list.routes.spec.ts.

  // Last: it changes the conversations the other tests filter.
  it('updated_since: every tag, message, inbox status, mailbox and owner change moves a conversation into it', async () => {
    const changedSince = async (since: Date) => list({ updated_since: since.toISOString() });
    const checkpoint = async () => {
      // updated_at has millisecond precision: a checkpoint strictly after the last change.
      await new Promise((resolve) => setTimeout(resolve, 5));
      return new Date();
    };
    let since = await checkpoint();
    expect(await changedSince(since)).toEqual([]);

    expect((await api().post('/conversation/tags', { conversation: { uuid: ids.b }, tags: [{ uuid: tags.wholesale }] })).status).toBe(200);
    expect(await changedSince(since)).toEqual([ids.b]);
    expect(await list({ updated_since: since.toISOString(), tag: [tags.vip, tags.wholesale] })).toEqual(same(ids.b));

    since = await checkpoint();
    const wamid = fakeWamid();
    expect((await deliverWebhook(inboundTextWebhook({ ...channelOf(business), from: phoneOfC.replace(/\D/g, ''), id: wamid, text: '¿Hola?' }))).status).toBe(200);
    expect(await eventually(() => changedSince(since), (changed) => changed.length > 0)).toEqual([ids.c]);

    since = await checkpoint();
    expect((await api().post('/conversation/messages/text', { conversation: { uuid: ids.a }, text: 'Le escribimos' })).status).toBe(201);
    expect(await changedSince(since)).toEqual([ids.a]);

    since = await checkpoint();
    expect((await api().post('/conversation/resolve', { conversation: { uuid: ids.c } })).status).toBe(200);
    expect(await changedSince(since)).toEqual([ids.c]);

    since = await checkpoint();
    expect((await api().post('/conversation/mailbox', { conversation: { uuid: ids.d }, mailbox: { uuid: mailbox } })).status).toBe(200);
    expect(await changedSince(since)).toEqual([ids.d]);

    since = await checkpoint();
    expect((await api().post('/conversation/ai-employee', { conversation: { uuid: ids.b }, ai_employee: { uuid: ai } })).status).toBe(200);
    expect(await changedSince(since)).toEqual([ids.b]);

    // A change that changes nothing does not count.
    since = await checkpoint();
    expect((await api().post('/conversation/resolve', { conversation: { uuid: ids.c } })).status).toBe(200);
    expect(await changedSince(since)).toEqual([]);
  });
});
