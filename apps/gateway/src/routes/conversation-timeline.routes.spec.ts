import type { GetConversationTimelineRequest } from '@cmsg/proto';
import { type GatewayHarness, startGatewayHarness } from '../testing/gateway-harness';
import { KNOWN_CONVERSATION_UUID, TEST_BUSINESS } from '../testing/fake-conversations-service';

const caller = { business_id: TEST_BUSINESS.business_id, token_uuid: TEST_BUSINESS.token_uuid };
const path = `/v1/acme/conversation/timeline?conversation_uuid=${KNOWN_CONVERSATION_UUID}`;

describe('GET /{slug}/conversation/timeline', () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGatewayHarness();
  });
  afterEach(() => gateway.reset());
  afterAll(() => gateway.close());

  it('asks for 50 of every kind, oldest first, by default', async () => {
    const response = await gateway.request(path);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ items: [], next_cursor: '', has_more: false });
    expect(gateway.conversations.callsOf('getConversationTimeline')[0]!.request).toEqual({
      caller,
      conversation_uuid: KNOWN_CONVERSATION_UUID,
      kinds: [],
      order: 'asc',
      cursor: undefined,
      limit: 50,
    });
  });

  it('passes kinds (each once), order, cursor and limit', async () => {
    await gateway.request(`${path}&kinds=note,message,note&order=desc&cursor=abc&limit=7`);
    expect(gateway.conversations.callsOf('getConversationTimeline')[0]!.request).toMatchObject({ kinds: ['note', 'message'], order: 'desc', cursor: 'abc', limit: 7 });
  });

  it('maps the items', async () => {
    gateway.conversations.overrides.getConversationTimeline = async (_request: GetConversationTimelineRequest) => ({
      items: [
        {
          uuid: '11111111-2222-4333-8444-555555555555',
          kind: 'note',
          created_at: '2025-01-31T10:00:00.000Z',
          author: { type: 'api_token', uuid: TEST_BUSINESS.token_uuid, name: undefined },
          note: { note: 'Call in the morning' },
        },
      ],
      next_cursor: 'next',
      has_more: true,
    });
    expect(await (await gateway.request(path)).json()).toEqual({
      items: [
        {
          uuid: '11111111-2222-4333-8444-555555555555',
          kind: 'note',
          created_at: '2025-01-31T10:00:00.000Z',
          author: { type: 'api_token', uuid: TEST_BUSINESS.token_uuid, name: null },
          note: 'Call in the morning',
        },
      ],
      next_cursor: 'next',
      has_more: true,
    });
  });

  it('is 404 CONVERSATION_NOT_FOUND for an unknown conversation', async () => {
    const response = await gateway.request('/v1/acme/conversation/timeline?conversation_uuid=99999999-2222-4333-8444-555555555555');
    expect([response.status, ((await response.json()) as { code: string }).code]).toEqual([404, 'CONVERSATION_NOT_FOUND']);
  });

  it.each(['', 'conversation_uuid=x', `conversation_uuid=${KNOWN_CONVERSATION_UUID}&kinds=messages`, `conversation_uuid=${KNOWN_CONVERSATION_UUID}&kinds=`, `conversation_uuid=${KNOWN_CONVERSATION_UUID}&kinds=note,,event`, `conversation_uuid=${KNOWN_CONVERSATION_UUID}&order=latest`, `conversation_uuid=${KNOWN_CONVERSATION_UUID}&limit=101`])(
    'is 400 INVALID_REQUEST for ?%s',
    async (query) => {
      const response = await gateway.request(`/v1/acme/conversation/timeline?${query}`);
      expect([response.status, ((await response.json()) as { code: string }).code]).toEqual([400, 'INVALID_REQUEST']);
      expect(gateway.conversations.callsOf('getConversationTimeline')).toHaveLength(0);
    },
  );
});
