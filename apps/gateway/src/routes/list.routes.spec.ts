import type { ListContactsRequest, ListConversationsRequest } from '@cmsg/proto';
import { type GatewayHarness, startGatewayHarness } from '../testing/gateway-harness';
import { TEST_BUSINESS } from '../testing/fake-conversations-service';

const caller = { business_id: TEST_BUSINESS.business_id, token_uuid: TEST_BUSINESS.token_uuid };

describe('list routes', () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGatewayHarness();
  });
  afterEach(() => gateway.reset());
  afterAll(() => gateway.close());

  describe('GET /{slug}/conversations', () => {
    it('asks for 50, most recent first, by default', async () => {
      const response = await gateway.request('/v1/acme/conversations');
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ items: [], next_cursor: '', has_more: false });
      expect(gateway.conversations.callsOf('listConversations')[0].request).toEqual({ caller, cursor: undefined, limit: 50, order: 'desc', tags: [] });
    });

    it('passes every filter, a repeated tag as the list and a single one as a list of one', async () => {
      const [tagA, tagB, mailbox] = ['aaaaaaaa-2222-4333-8444-555555555555', 'bbbbbbbb-2222-4333-8444-555555555555', 'cccccccc-2222-4333-8444-555555555555'];
      const filters = `inbox_status=pending&tag=${tagA}&tag=${tagB}&mailbox=${mailbox}&ai_employee=none&window=open&is_tester=false&updated_since=2025-01-31T10:00:00%2B02:00`;
      expect((await gateway.request(`/v1/acme/conversations?${filters}`)).status).toBe(200);
      expect((await gateway.request(`/v1/acme/conversations?tag=${tagA}&is_tester=true`)).status).toBe(200);
      const [all, one] = gateway.conversations.callsOf('listConversations').map((call) => call.request);
      expect(all).toEqual({
        caller,
        cursor: undefined,
        limit: 50,
        order: 'desc',
        inbox_status: 'pending',
        tags: [tagA, tagB],
        mailbox,
        ai_employee: 'none',
        window: 'open',
        is_tester: false,
        updated_since: '2025-01-31T10:00:00+02:00',
      });
      expect(one).toMatchObject({ tags: [tagA], is_tester: true });
    });

    it.each([
      'inbox_status=open',
      'tag=not-a-uuid',
      `tag=aaaaaaaa-2222-4333-8444-555555555555&tag=x`,
      `${Array.from({ length: 21 }, () => 'tag=aaaaaaaa-2222-4333-8444-555555555555').join('&')}`,
      'mailbox=sales',
      'ai_employee=nobody',
      'window=half',
      'is_tester=yes',
      'updated_since=yesterday',
    ])('is 400 INVALID_REQUEST for the filter %s', async (query) => {
      const response = await gateway.request(`/v1/acme/conversations?${query}`);
      expect([response.status, ((await response.json()) as { code: string }).code]).toEqual([400, 'INVALID_REQUEST']);
      expect(gateway.conversations.callsOf('listConversations')).toHaveLength(0);
    });

    it('passes cursor, limit and order', async () => {
      await gateway.request('/v1/acme/conversations?cursor=abc&limit=100&order=asc');
      expect(gateway.conversations.callsOf('listConversations')[0].request).toMatchObject({ cursor: 'abc', limit: 100, order: 'asc' });
    });

    it('maps the items, absent fields as null', async () => {
      gateway.conversations.overrides.listConversations = async (_request: ListConversationsRequest) => ({
        items: [
          {
            uuid: '11111111-2222-4333-8444-555555555555',
            contact: { uuid: '22222222-2222-4333-8444-555555555555', name: 'Ana', profile_name: undefined, phone: undefined, chat_user_id: 'BSUID.1' },
            last_message_at: undefined,
            last_message_preview: undefined,
            unread_count: 2,
            mailbox: undefined,
            ai_employee: { uuid: '33333333-2222-4333-8444-555555555555', name: 'Ava' },
            tags: [],
            messaging_window_expires_at: undefined,
            is_tester: false,
            inbox_status: 'pending',
            updated_at: '2025-01-31T09:00:00.000Z',
          },
        ],
        next_cursor: 'next',
        has_more: true,
      });
      const body = (await (await gateway.request('/v1/acme/conversations')).json()) as { items: Record<string, unknown>[]; next_cursor: string };
      expect(body.next_cursor).toBe('next');
      expect(body.items[0]).toMatchObject({
        contact: { name: 'Ana', profile_name: null, phone: null, chat_user_id: 'BSUID.1' },
        last_message_at: null,
        last_message_preview: null,
        mailbox: null,
        ai_employee: { name: 'Ava' },
        messaging_window_expires_at: null,
        inbox_status: 'pending',
        updated_at: '2025-01-31T09:00:00.000Z',
      });
    });

    it.each(['limit=0', 'limit=101', 'limit=abc', 'order=latest', 'cursor=', `cursor=${'c'.repeat(513)}`])('is 400 INVALID_REQUEST for %s', async (query) => {
      const response = await gateway.request(`/v1/acme/conversations?${query}`);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { code: string }).code).toBe('INVALID_REQUEST');
      expect(gateway.conversations.callsOf('listConversations')).toHaveLength(0);
    });
  });

  describe.each([
    ['/contacts', false],
    ['/tester/contacts', true],
  ])('GET /{slug}%s', (path, testersOnly) => {
    it(`lists with testers_only ${testersOnly}`, async () => {
      const response = await gateway.request(`/v1/acme${path}?limit=10&cursor=xyz`);
      expect(response.status).toBe(200);
      expect(gateway.conversations.callsOf('listContacts')[0].request).toEqual({ caller, cursor: 'xyz', limit: 10, testers_only: testersOnly });
    });

    it('passes the filters as given (the service normalises them)', async () => {
      const query = 'updated_since=2025-01-31T19:00:00.5%2B01:00&phone=%2B52%201%20(55)%201234-5678&chat_user_id=US.1&username=%40Juan';
      expect((await gateway.request(`/v1/acme${path}?${query}`)).status).toBe(200);
      expect(gateway.conversations.callsOf('listContacts')[0].request).toEqual({
        caller,
        cursor: undefined,
        limit: 50,
        testers_only: testersOnly,
        updated_since: '2025-01-31T19:00:00.5+01:00',
        phone: '+52 1 (55) 1234-5678',
        chat_user_id: 'US.1',
        username: '@Juan',
      });
    });

    it.each(['updated_since=2025-01-31T18:00:00', 'updated_since=yesterday', 'updated_since=2025-02-30T00:00:00Z', 'phone=', 'username=%20', 'chat_user_id=a&chat_user_id=b'])(
      'is 400 INVALID_REQUEST for %s',
      async (query) => {
        const response = await gateway.request(`/v1/acme${path}?${query}`);
        expect(response.status).toBe(400);
        expect(((await response.json()) as { code: string }).code).toBe('INVALID_REQUEST');
        expect(gateway.conversations.callsOf('listContacts')).toHaveLength(0);
      },
    );

    it('maps absent contact strings to null', async () => {
      gateway.conversations.overrides.listContacts = async (_request: ListContactsRequest) => ({
        items: [
          {
            uuid: '11111111-2222-4333-8444-555555555555',
            first_name: 'Ana',
            middle_name: undefined,
            last_name: undefined,
            second_last_name: undefined,
            full_name: undefined,
            chat_id: undefined,
            chat_user_id: undefined,
            chat_username: 'ana',
            acquisition_source: undefined,
            is_tester: testersOnly,
            created_at: '2025-01-31T10:00:00.000Z',
            updated_at: '2025-01-31T10:00:00.000Z',
            channel: undefined,
            phone: undefined,
            email: undefined,
            language: undefined,
            external_id: undefined,
            attributes: {},
            consent: undefined,
            conversation_uuid: undefined,
          },
        ],
        has_more: false,
        next_cursor: '',
      });
      const body = (await (await gateway.request(`/v1/acme${path}`)).json()) as { items: Record<string, unknown>[] };
      expect(body.items[0]).toMatchObject({ first_name: 'Ana', middle_name: null, full_name: null, chat_username: 'ana', is_tester: testersOnly });
    });
  });

  describe('GET /{slug}/channels', () => {
    it('lists the channels, an absent phone as null, a messaging-limit tier as a number', async () => {
      gateway.conversations.overrides.listChannels = async () => ({
        items: [
          { public_key: 'ch_main', name: 'Main', phone: undefined, status: 'connected', max_messages_per_second: 80, messaging_limit: 'unlimited' },
          { public_key: 'ch_two', name: 'Two', phone: '+5215500000000', status: 'connected', max_messages_per_second: 10, messaging_limit: '2000' },
        ],
      });
      const response = await gateway.request('/v1/acme/channels');
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        items: [
          { public_key: 'ch_main', name: 'Main', phone: null, status: 'connected', max_messages_per_second: 80, messaging_limit: 'unlimited' },
          { public_key: 'ch_two', name: 'Two', phone: '+5215500000000', status: 'connected', max_messages_per_second: 10, messaging_limit: 2000 },
        ],
      });
    });
  });
});
