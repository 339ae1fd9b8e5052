import { createTestBusiness, integrationStack } from '@cmsg/testing';

describe('rate limit (SPEC 8)', () => {
  it('allows 60 requests per minute per token across two gateway replicas, the 61st is 429 with Retry-After', async () => {
    const business = await createTestBusiness();
    const [first, second] = integrationStack().gatewayUrls;
    expect(second).toBeDefined();
    const statuses: number[] = [];
    for (let index = 0; index < 60; index += 1) {
      // Alternate replicas: the budget is shared through Redis, not per process.
      const response = await business.api.atGateway(index % 2 === 0 ? first! : second!).get('/channels');
      statuses.push(response.status);
      expect(Number(response.headers.get('x-ratelimit-remaining'))).toBe(59 - index);
    }
    expect(statuses.every((status) => status === 200)).toBe(true);

    const limited = await business.api.atGateway(second!).get('/channels');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ code: 'RATE_LIMIT_EXCEEDED', message: expect.any(String) });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('x-ratelimit-limit')).toBe('60');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('x-ratelimit-reset'))).toBe(retryAfter);

    // Another token of another business is not affected.
    const unaffected = await createTestBusiness();
    expect((await unaffected.api.atGateway(first!).get('/channels')).status).toBe(200);
  });
});
