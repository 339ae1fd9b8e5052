import { API_TOKEN_SCOPES, requiredScopeOf } from '@cmsg/api-schemas';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { BUSINESS_ROUTES } from './routes/business-routes';
import { KNOWN_CONVERSATION_UUID } from './testing/fake-conversations-service';
import { type GatewayHarness, startGatewayHarness } from './testing/gateway-harness';

const READ_ONLY_TOKEN = `cmsg_${'1'.repeat(64)}`;
const WRITE_ONLY_TOKEN = `cmsg_${'2'.repeat(64)}`;

/** A request path of the route: every path parameter filled with a uuid. */
function concretePath(path: string): string {
  return `/v1/acme${path.replace(/:[A-Za-z_]+/g, KNOWN_CONVERSATION_UUID)}`;
}

async function errorOf(response: Response): Promise<{ status: number; code?: string; message?: string }> {
  const text = await response.text();
  const body = text ? (JSON.parse(text) as { code?: string; message?: string }) : {};
  return { status: response.status, code: body.code, message: body.message };
}

describe('token scopes (CONTRACT 9.3)', () => {
  let gateway: GatewayHarness;

  // Every registered business route, so a new route cannot escape the check. One gateway for them
  // all, a token of its own for each test (the gateway caches what a token may do).
  describe('every business route', () => {
    let tokens = 0;
    const freshToken = () => `cmsg_${(tokens += 1).toString(16).padStart(64, '0')}`;
    beforeAll(async () => {
      gateway = await startGatewayHarness();
    });
    afterAll(() => gateway.close());
    beforeEach(() => {
      gateway.conversations.calls.length = 0;
    });

    describe.each(BUSINESS_ROUTES.map((route) => [`${route.endpoint.method.toUpperCase()} ${route.endpoint.path}`, route.endpoint] as const))('%s', (_name, endpoint) => {
      const scope = requiredScopeOf(endpoint);
      const request = (token: string) =>
        gateway.request(concretePath(endpoint.path), {
          method: endpoint.method.toUpperCase(),
          headers: { authorization: `Bearer ${token}` },
          ...(endpoint.method === 'get' ? {} : { json: {} }),
        });

      it(`is refused 403 TOKEN_SCOPE_INSUFFICIENT, naming ${scope}, to a token holding every other scope, before any service call`, async () => {
        const token = freshToken();
        gateway.conversations.addToken(token, API_TOKEN_SCOPES.filter((other) => other !== scope));
        const refused = await errorOf(await request(token));
        expect(refused).toEqual({ status: 403, code: 'TOKEN_SCOPE_INSUFFICIENT', message: expect.stringContaining(scope) });
        expect(gateway.conversations.calls.map((call) => call.method)).toEqual(['authenticateToken']);
      });

      it(`passes the scope check with ${scope} alone`, async () => {
        const token = freshToken();
        gateway.conversations.addToken(token, [scope]);
        expect(await errorOf(await request(token))).not.toMatchObject({ code: 'TOKEN_SCOPE_INSUFFICIENT' });
      });
    });
  });

  describe('tokens of one scope', () => {
    beforeEach(async () => {
      gateway = await startGatewayHarness();
    });
    afterEach(() => gateway.close());

    it('a read-only token reads (GET and POST /conversation/status) and cannot write', async () => {
      gateway.conversations.addToken(READ_ONLY_TOKEN, ['conversations:read']);
      const auth = { authorization: `Bearer ${READ_ONLY_TOKEN}` };
      expect((await gateway.request('/v1/acme/contacts', { headers: auth })).status).toBe(200);
      const status = await gateway.request('/v1/acme/conversation/status', { method: 'POST', headers: auth, json: { conversation: { uuid: KNOWN_CONVERSATION_UUID } } });
      expect(status.status).toBe(200);
      const note = await gateway.request('/v1/acme/conversation/notes', { method: 'POST', headers: auth, json: { conversation: { uuid: KNOWN_CONVERSATION_UUID }, note: 'hi' } });
      expect(await errorOf(note)).toEqual({
        status: 403,
        code: 'TOKEN_SCOPE_INSUFFICIENT',
        message: 'The API token lacks the scope conversations:write, which POST /{slug}/conversation/notes needs.',
      });
      expect(gateway.conversations.callsOf('addNote')).toHaveLength(0);
    });

    it('a write-only token cannot read', async () => {
      gateway.conversations.addToken(WRITE_ONLY_TOKEN, ['conversations:write']);
      const response = await gateway.request('/v1/acme/channels', { headers: { authorization: `Bearer ${WRITE_ONLY_TOKEN}` } });
      expect(await errorOf(response)).toMatchObject({ status: 403, code: 'TOKEN_SCOPE_INSUFFICIENT', message: expect.stringContaining('conversations:read') });
    });

    it('checks the slug first, then the scope, then the body', async () => {
      gateway.conversations.addToken(READ_ONLY_TOKEN, ['conversations:read']);
      const auth = { authorization: `Bearer ${READ_ONLY_TOKEN}` };
      expect(await errorOf(await gateway.request('/v1/other/conversation/notes', { method: 'POST', headers: auth, json: {} }))).toMatchObject({
        status: 403,
        code: 'TOKEN_BUSINESS_MISMATCH',
      });
      const malformed = await gateway.request('/v1/acme/conversation/notes', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{' });
      expect(await errorOf(malformed)).toMatchObject({ status: 403, code: 'TOKEN_SCOPE_INSUFFICIENT' });
    });
  });
});

describe('token scopes and the rate limit', () => {
  let gateway: GatewayHarness;
  beforeEach(async () => {
    gateway = await startGatewayHarness({ rateLimiter: new RateLimiterMemory({ points: 1, duration: 60, keyPrefix: 'rl:token' }) });
  });
  afterEach(() => gateway.close());

  it('a refusal for scope comes before the rate limit: it spends no budget and carries no X-RateLimit headers', async () => {
    gateway.conversations.addToken(READ_ONLY_TOKEN, ['conversations:read']);
    const auth = { authorization: `Bearer ${READ_ONLY_TOKEN}` };
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const refused = await gateway.request('/v1/acme/conversation/pending', { method: 'POST', headers: auth, json: { conversation: { uuid: KNOWN_CONVERSATION_UUID } } });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('x-ratelimit-limit')).toBeNull();
    }
    const allowed = await gateway.request('/v1/acme/channels', { headers: auth });
    expect([allowed.status, allowed.headers.get('x-ratelimit-remaining')]).toEqual([200, '0']);
  });
});
