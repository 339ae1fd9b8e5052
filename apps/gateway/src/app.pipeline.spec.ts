import http from 'node:http';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { type GatewayHarness, startGatewayHarness } from './testing/gateway-harness';
import { KNOWN_CONVERSATION_UUID, OTHER_TOKEN, TEST_BUSINESS, TEST_TOKEN } from './testing/fake-conversations-service';

const STATUS_PATH = '/v1/acme/conversation/status';
const statusBody = { conversation: { uuid: KNOWN_CONVERSATION_UUID } };
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function expectError(response: Response, status: number, code: string): Promise<{ code: string; message: string }> {
  const body = (await response.json()) as { code: string; message: string };
  expect({ status: response.status, code: body.code }).toEqual({ status, code });
  expect(Object.keys(body).sort()).toEqual(['code', 'message']);
  return body;
}

describe('gateway pipeline', () => {
  let gateway: GatewayHarness;
  beforeEach(async () => {
    gateway = await startGatewayHarness({ tokenCacheTtlMs: 4000 });
  });
  afterEach(() => gateway.close());

  describe('X-Request-Id and X-Api-Version', () => {
    it('keeps a valid client UUID and passes it to the gRPC call', async () => {
      const requestId = '0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d';
      const response = await gateway.request(STATUS_PATH, { method: 'POST', json: statusBody, headers: { 'X-Request-Id': requestId } });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-request-id')).toBe(requestId);
      expect(gateway.conversations.callsOf('getConversationStatus')[0].requestId).toBe(requestId);
      expect(gateway.conversations.callsOf('authenticateToken')[0].requestId).toBe(requestId);
    });

    it('stays in the request context when the body arrives after the headers', async () => {
      const requestId = '0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d';
      const body = JSON.stringify(statusBody);
      const status = await new Promise<number>((resolve, reject) => {
        const headers = { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-request-id': requestId };
        const request = http.request(`${gateway.baseUrl}${STATUS_PATH}`, { method: 'POST', headers }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        request.on('error', reject);
        request.write(body.slice(0, 5));
        setTimeout(() => request.end(body.slice(5)), 50);
      });
      expect(status).toBe(200);
      expect(gateway.conversations.callsOf('getConversationStatus')[0].requestId).toBe(requestId);
    });

    it('replaces an invalid one and uses the new id upstream too', async () => {
      const response = await gateway.request(STATUS_PATH, { method: 'POST', json: statusBody, headers: { 'X-Request-Id': 'my-id' } });
      const requestId = response.headers.get('x-request-id');
      expect(requestId).toMatch(uuidPattern);
      expect(gateway.conversations.callsOf('getConversationStatus')[0].requestId).toBe(requestId);
    });

    it.each([
      ['an unknown path', '/nope', 'GET'],
      ['a business 404', '/v1/acme/nope', 'GET'],
      ['a 405', STATUS_PATH, 'GET'],
      ['a 401', STATUS_PATH, 'POST'],
      ['the probe', '/healthz', 'GET'],
    ])('are on %s', async (_case, path, method) => {
      const response = await gateway.request(path, { method, anonymous: true });
      expect(response.headers.get('x-request-id')).toMatch(uuidPattern);
      expect(response.headers.get('x-api-version')).toBe('0.2.0');
    });
  });

  describe('token', () => {
    it.each([
      ['missing', undefined],
      ['not bearer', `Basic ${'x'.repeat(10)}`],
      ['malformed', `Bearer cmsg_${'A'.repeat(64)}`],
      ['too short', 'Bearer cmsg_abc'],
    ])('%s: 401 INVALID_API_TOKEN without any lookup', async (_case, authorization) => {
      const response = await gateway.request(STATUS_PATH, {
        method: 'POST',
        json: statusBody,
        anonymous: authorization === undefined,
        headers: authorization ? { authorization } : {},
      });
      await expectError(response, 401, 'INVALID_API_TOKEN');
      expect(gateway.conversations.calls).toHaveLength(0);
      expect(response.headers.get('x-ratelimit-limit')).toBeNull();
    });

    it('unknown: 401 INVALID_API_TOKEN after the lookup', async () => {
      const response = await gateway.request(STATUS_PATH, { method: 'POST', json: statusBody, headers: { authorization: `Bearer ${OTHER_TOKEN}` } });
      await expectError(response, 401, 'INVALID_API_TOKEN');
      expect(gateway.conversations.callsOf('authenticateToken')).toHaveLength(1);
    });

    it('checks the token before the body', async () => {
      const response = await gateway.request(STATUS_PATH, { method: 'POST', body: '{not json', anonymous: true, headers: { 'content-type': 'application/json' } });
      await expectError(response, 401, 'INVALID_API_TOKEN');
    });

    it('caches a valid token for the TTL', async () => {
      await gateway.request('/v1/acme/channels');
      await gateway.request('/v1/acme/channels');
      expect(gateway.conversations.callsOf('authenticateToken')).toHaveLength(1);
    });
  });

  describe('slug', () => {
    it.each(['acme', 'ACME', 'AcMe'])('%s matches the token business case-insensitively', async (slug) => {
      expect((await gateway.request(`/v1/${slug}/channels`)).status).toBe(200);
    });

    it.each(['other', 'acme2'])('%s is 403 TOKEN_BUSINESS_MISMATCH, also when it names no business', async (slug) => {
      await expectError(await gateway.request(`/v1/${slug}/channels`), 403, 'TOKEN_BUSINESS_MISMATCH');
      expect(gateway.conversations.callsOf('listChannels')).toHaveLength(0);
    });

    it('passes the token business as the caller', async () => {
      await gateway.request('/v1/ACME/channels');
      expect(gateway.conversations.callsOf('listChannels')[0].request).toEqual({
        caller: { business_id: TEST_BUSINESS.business_id, token_uuid: TEST_BUSINESS.token_uuid },
      });
    });
  });

  describe('body', () => {
    it('malformed JSON is 400 INVALID_REQUEST', async () => {
      const body = await expectError(
        await gateway.request(STATUS_PATH, { method: 'POST', body: '{"conversation":', headers: { 'content-type': 'application/json' } }),
        400,
        'INVALID_REQUEST',
      );
      expect(body.message).toMatch(/not valid JSON/);
    });

    it('a non-JSON content type is 400 INVALID_REQUEST', async () => {
      await expectError(
        await gateway.request(STATUS_PATH, { method: 'POST', body: 'conversation=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
        400,
        'INVALID_REQUEST',
      );
    });

    it('no body is 400 INVALID_REQUEST naming what is missing', async () => {
      const body = await expectError(await gateway.request(STATUS_PATH, { method: 'POST' }), 400, 'INVALID_REQUEST');
      expect(body.message).toContain('body');
    });

    it('a body over 1 MiB is 413 with code INVALID_REQUEST', async () => {
      const note = 'x'.repeat(1024 * 1024);
      await expectError(
        await gateway.request('/v1/acme/conversation/notes', { method: 'POST', json: { conversation: statusBody.conversation, note } }),
        413,
        'INVALID_REQUEST',
      );
    });

    it('a schema failure names the field and reaches no service', async () => {
      const body = await expectError(await gateway.request(STATUS_PATH, { method: 'POST', json: { conversation: { uuid: 'x' } } }), 400, 'INVALID_REQUEST');
      expect(body.message).toContain('conversation.uuid');
      expect(gateway.conversations.callsOf('getConversationStatus')).toHaveLength(0);
    });
  });

  describe('unknown paths and methods', () => {
    it.each(['/nope', '/v1', '/v1/acme', '/v1/acme/conversation/unknown'])('%s is 404 NOT_FOUND', async (path) => {
      await expectError(await gateway.request(path), 404, 'NOT_FOUND');
    });

    it('a known path with another method is 405 METHOD_NOT_ALLOWED with Allow', async () => {
      const response = await gateway.request(STATUS_PATH, { method: 'DELETE' });
      await expectError(response, 405, 'METHOD_NOT_ALLOWED');
      expect(response.headers.get('allow')).toBe('POST');
      const listResponse = await gateway.request('/v1/acme/templates', { method: 'POST', json: {} });
      await expectError(listResponse, 405, 'METHOD_NOT_ALLOWED');
      expect(listResponse.headers.get('allow')).toBe('GET, HEAD');
    });
  });

  describe('upstream failures', () => {
    it('a catalog error from the service keeps its code, status and message', async () => {
      const body = await expectError(
        await gateway.request(STATUS_PATH, { method: 'POST', json: { conversation: { uuid: '99999999-2222-4333-8444-555555555555' } } }),
        404,
        'CONVERSATION_NOT_FOUND',
      );
      expect(body.message).toBe('The conversation reference resolves to no conversation in this business.');
    });

    it('an unexpected service failure is 500 UNKNOWN_ERROR without internals', async () => {
      gateway.conversations.overrides.getConversationStatus = async () => {
        throw new Error('mongo exploded at 10.0.0.7');
      };
      const body = await expectError(await gateway.request(STATUS_PATH, { method: 'POST', json: statusBody }), 500, 'UNKNOWN_ERROR');
      expect(body.message).not.toContain('mongo');
    });

    it('an answer outside the public shape is 500 UNKNOWN_ERROR', async () => {
      gateway.conversations.overrides.markPending = async () => ({ conversation: { uuid: KNOWN_CONVERSATION_UUID }, inbox_status: 'archived' });
      await expectError(await gateway.request('/v1/acme/conversation/pending', { method: 'POST', json: statusBody }), 500, 'UNKNOWN_ERROR');
    });
  });
});

describe('gateway rate limit', () => {
  let gateway: GatewayHarness;
  beforeEach(async () => {
    gateway = await startGatewayHarness({ rateLimiter: new RateLimiterMemory({ points: 2, duration: 60, keyPrefix: 'rl:token' }) });
  });
  afterEach(() => gateway.close());

  it('sends X-RateLimit-* on every authenticated response and 429 with Retry-After past the limit', async () => {
    const first = await gateway.request('/v1/acme/channels');
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    expect(Number(first.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(59);

    const second = await gateway.request('/v1/acme/conversation/status', { method: 'POST', json: {} });
    expect(second.status).toBe(400);
    expect(second.headers.get('x-ratelimit-remaining')).toBe('0');

    const limited = await gateway.request('/v1/acme/channels');
    await expectError(limited, 429, 'RATE_LIMIT_EXCEEDED');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(gateway.conversations.callsOf('listChannels')).toHaveLength(1);
  });

  it('counts per token, after the slug check', async () => {
    await gateway.request('/v1/other/channels');
    await gateway.request('/v1/other/channels');
    expect((await gateway.request('/v1/acme/channels')).status).toBe(200);
  });
});
