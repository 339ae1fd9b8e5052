import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type CmsgClient, CmsgApiError, createCmsgClient, unwrap } from '@cmsg/client';
import { generateApiToken } from '@cmsg/seed';
import { type TestBusiness, WORKSPACE_ROOT, contactSeed, createTestBusiness, integrationStack, minutesAgo, storedCollection } from '@cmsg/testing';

/** The generated client against the real stack: the document it was generated from is what the gateway does. */
describe('@cmsg/client against the real stack', () => {
  let business: TestBusiness;
  let cmsg: CmsgClient;
  const newestFirst: string[] = [];
  let openPhone: string;

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      for (let hours = 5; hours >= 1; hours -= 1) {
        const contact = contactSeed(seed, {
          conversation: { uuid: randomUUID(), messages: [{ uuid: randomUUID(), is_from_customer: true, body: `msg ${hours}h`, created_at: minutesAgo(hours * 60) }] },
        });
        newestFirst.unshift(contact.conversation!.uuid!);
        if (hours === 1) openPhone = contact.phone!;
      }
    });
    cmsg = createCmsgClient({ baseUrl: `${integrationStack().gatewayUrls[0]}/v1`, slug: business.slug, token: business.token });
  });

  it('lists conversations page by page with typed items and cursors', async () => {
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = unwrap(await cmsg.GET('/conversations', { params: { query: { limit: 2, cursor } } }));
      pages.push(page.items.map((item) => item.uuid));
      if (!page.has_more) expect(page.next_cursor).toBe('');
      cursor = page.has_more ? page.next_cursor : undefined;
    } while (cursor);
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(newestFirst);

    const oldestFirst = unwrap(await cmsg.GET('/conversations', { params: { query: { order: 'asc', limit: 100 } } }));
    expect(oldestFirst.items.map((item) => item.uuid)).toEqual([...newestFirst].reverse());
    expect(oldestFirst.items[0]!.last_message_preview).toEqual({ body: 'msg 5h', content_type: 'text', is_from_customer: true });
  });

  it('reads a status snapshot by phone', async () => {
    const status = unwrap(await cmsg.POST('/conversation/status', { body: { conversation: { phone: openPhone } } }));
    expect(status.conversation.uuid).toBe(newestFirst[0]);
    expect(status.window.status).toBe('open');
    expect(status.window.hours_remaining).toBeGreaterThan(22);
    expect(status.inbox_status).toBe('resolved');
  });

  it('adds a note (201) that lands on the timeline with author api_token', async () => {
    const { data, response } = await cmsg.POST('/conversation/notes', { body: { conversation: { uuid: newestFirst[1]! }, note: 'From the typed client' } });
    expect(response.status).toBe(201);
    expect(data!.conversation.uuid).toBe(newestFirst[1]);
    const stored = await storedCollection('timeline_events').findOne({ _id: data!.note.uuid });
    expect(stored).toMatchObject({ business_id: business.businessId, kind: 'note', body: 'From the typed client', author: { type: 'api_token', uuid: business.tokenUuid } });
  });

  it('gives error answers typed as {code, message} with their status, and throws them from unwrap', async () => {
    const missing = await cmsg.POST('/conversation/status', { body: { conversation: { uuid: randomUUID() } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toEqual({ code: 'CONVERSATION_NOT_FOUND', message: expect.any(String) });

    const badCursor = await cmsg.GET('/conversations', { params: { query: { cursor: 'not-a-cursor' } } }).then(unwrap).catch((error: unknown) => error);
    expect(badCursor).toBeInstanceOf(CmsgApiError);
    expect(badCursor).toMatchObject({ status: 400, code: 'INVALID_CURSOR', requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });

    const anotherToken = createCmsgClient({ baseUrl: integrationStack().gatewayUrls[0]!, slug: business.slug, token: generateApiToken() });
    const unauthorized = await anotherToken.GET('/channels');
    expect([unauthorized.response.status, unauthorized.error?.code]).toEqual([401, 'INVALID_API_TOKEN']);

    const otherSlug = createCmsgClient({ baseUrl: integrationStack().gatewayUrls[0]!, slug: 'someone-else', token: business.token });
    const mismatch = await otherSlug.GET('/channels');
    expect([mismatch.response.status, mismatch.error?.code]).toEqual([403, 'TOKEN_BUSINESS_MISMATCH']);
  });

  it('reaches the routes outside the business scope, and the gateway serves the committed document', async () => {
    expect(unwrap(await cmsg.gateway.GET('/healthz'))).toEqual({ status: 'ok' });
    const served = unwrap(await cmsg.gateway.GET('/v1/openapi.json'));
    const committed = JSON.parse(readFileSync(path.join(WORKSPACE_ROOT, 'libs/client/openapi.json'), 'utf8'));
    expect(served).toEqual(committed);
  });
});
