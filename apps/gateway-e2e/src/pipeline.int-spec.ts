import { randomUUID } from 'node:crypto';
import { API_TOKEN_SCOPES } from '@cmsg/api-schemas';
import { ApiTokenRepository, businessScope } from '@cmsg/dal';
import { generateApiToken, hashApiToken } from '@cmsg/seed';
import { type TestBusiness, contactSeed, createTestBusiness, lastStaleReadAfter } from '@cmsg/testing';

describe('request pipeline', () => {
  let business: TestBusiness;
  let other: TestBusiness;
  let conversationUuid: string;

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      conversationUuid = contactSeed(seed).conversation!.uuid!;
    });
    other = await createTestBusiness();
  });

  describe('X-Request-Id and version headers', () => {
    it('keeps a valid client UUID and replaces anything else, on success and error alike', async () => {
      const mine = randomUUID();
      const kept = await business.api.post('/conversation/status', { conversation: { uuid: conversationUuid } }, { 'x-request-id': mine });
      expect(kept.headers.get('x-request-id')).toBe(mine);
      expect(kept.headers.get('x-api-version')).toBe('0.2.0');

      const replaced = await business.api.post('/conversation/status', { conversation: { uuid: conversationUuid } }, { 'x-request-id': 'not-a-uuid' });
      expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(replaced.headers.get('x-request-id')).not.toBe('not-a-uuid');

      const unauthenticated = await business.api.withToken(undefined).post('/conversation/status', {});
      expect(unauthenticated.status).toBe(401);
      expect(unauthenticated.headers.get('x-request-id')).toBeTruthy();
    });
  });

  describe('authentication (SPEC 5)', () => {
    it.each([
      ['missing', undefined],
      ['malformed', 'cmsg_123'],
      ['uppercase hex', `cmsg_${'A'.repeat(64)}`],
      ['wrong prefix', `xmsg_${'a'.repeat(64)}`],
      ['unknown', generateApiToken()],
    ])('answers 401 INVALID_API_TOKEN for a %s token', async (_case, token) => {
      const response = await business.api.withToken(token).post('/conversation/status', { conversation: { uuid: conversationUuid } });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ code: 'INVALID_API_TOKEN', message: expect.any(String) });
    });

    // A non-Bearer scheme: apps/gateway/src/auth/api-token.spec.ts and app.pipeline.spec.ts.

    it('honours a revocation within 5 seconds', async () => {
      const token = generateApiToken();
      const tokenUuid = randomUUID();
      const apiTokens = new ApiTokenRepository();
      await apiTokens.create(businessScope(business.businessId), { id: tokenUuid, tokenSha256: hashApiToken(token), scopes: API_TOKEN_SCOPES, createdAt: new Date() });
      const client = business.api.withToken(token);
      expect((await client.get('/channels')).status).toBe(200);
      await apiTokens.revoke({ id: tokenUuid }, new Date());
      const revokedAt = Date.now();
      const read = async (): Promise<number> => (await client.get('/channels')).status;
      // The request, not its answer, is what must come within 5 s of the revocation.
      expect(await lastStaleReadAfter(revokedAt, read, (status) => status === 401)).toBeLessThan(5000);
    });

    it('answers 403 TOKEN_BUSINESS_MISMATCH for another business slug or an unknown slug, and accepts any case', async () => {
      const foreign = await business.api.withSlug(other.slug).get('/channels');
      expect([foreign.status, foreign.body.code]).toEqual([403, 'TOKEN_BUSINESS_MISMATCH']);
      const unknown = await business.api.withSlug('no-such-business').get('/channels');
      expect([unknown.status, unknown.body.code]).toEqual([403, 'TOKEN_BUSINESS_MISMATCH']);
      for (const slug of [business.slug.toUpperCase(), business.slug.toLowerCase()]) {
        expect((await business.api.withSlug(slug).get('/channels')).status).toBe(200);
      }
    });
  });

  describe('protocol errors are catalog errors', () => {
    it('answers 404 NOT_FOUND for an unknown path and 405 METHOD_NOT_ALLOWED for a wrong method', async () => {
      const unknown = await business.api.get('/no/such/path');
      expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
      const outside = await business.api.request('GET', '/elsewhere');
      expect([outside.status, outside.body.code]).toEqual([404, 'NOT_FOUND']);
      const wrongMethod = await business.api.get('/conversation/status');
      expect([wrongMethod.status, wrongMethod.body.code]).toEqual([405, 'METHOD_NOT_ALLOWED']);
    });

    // Malformed JSON and a non-JSON content type are 400 INVALID_REQUEST: apps/gateway/src/app.pipeline.spec.ts.

    it('answers 413 with INVALID_REQUEST for a body over 1 MiB', async () => {
      const huge = JSON.stringify({ conversation: { uuid: conversationUuid }, note: 'x'.repeat(1024 * 1024 + 10) });
      const response = await business.api.request('POST', `/v1/${business.slug}/conversation/notes`, huge, { 'content-type': 'application/json' });
      expect([response.status, response.body.code]).toEqual([413, 'INVALID_REQUEST']);
    });

    it('carries the rate-limit headers on authenticated responses', async () => {
      const response = await other.api.get('/channels');
      expect(response.headers.get('x-ratelimit-limit')).toBe('60');
      expect(Number(response.headers.get('x-ratelimit-remaining'))).toBeLessThan(60);
      expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(0);
    });
  });

  describe('service endpoints', () => {
    it('serves /healthz, /readyz and the OpenAPI document without a token', async () => {
      const anonymous = business.api.withToken(undefined);
      expect((await anonymous.request('GET', '/healthz')).status).toBe(200);
      expect((await anonymous.request('GET', '/readyz')).status).toBe(200);
      const openapi = await anonymous.request('GET', '/v1/openapi.json');
      expect(openapi.status).toBe(200);
      expect(openapi.body.openapi).toMatch(/^3\.1/);
      const paths = Object.keys(openapi.body.paths);
      for (const path of ['/{slug}/conversation/status', '/{slug}/conversation/notes', '/{slug}/conversation/pending', '/{slug}/conversation/resolve', '/{slug}/conversations', '/{slug}/contacts', '/{slug}/tester/contacts', '/{slug}/channels']) {
        expect(paths.some((candidate) => candidate.endsWith(path))).toBe(true);
      }
    });
  });
});
