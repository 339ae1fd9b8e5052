import { type GatewayHarness, startGatewayHarness } from '../testing/gateway-harness';

describe('operational routes', () => {
  let gateway: GatewayHarness;
  let kafkaUp = true;
  beforeEach(async () => {
    kafkaUp = true;
    gateway = await startGatewayHarness({
      readinessChecks: [
        { name: 'redis', check: async () => undefined },
        { name: 'kafka', check: async () => (kafkaUp ? undefined : Promise.reject(new Error('broker 10.0.0.9 unreachable'))) },
      ],
    });
  });
  afterEach(() => gateway.close());

  it('GET /healthz is 200 without a token', async () => {
    const response = await gateway.request('/healthz', { anonymous: true });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('GET /readyz is 200 when every dependency answers', async () => {
    const response = await gateway.request('/readyz', { anonymous: true });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ready', checks: { redis: 'ok', kafka: 'ok' } });
  });

  it('GET /readyz is 503 naming the failing dependency, without its details', async () => {
    kafkaUp = false;
    const response = await gateway.request('/readyz', { anonymous: true });
    expect(response.status).toBe(503);
    const body = (await response.json()) as { code: string; message: string; checks: unknown };
    expect(body).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'Not ready: kafka.', checks: { redis: 'ok', kafka: 'failing' } });
  });

  it('GET /v1/openapi.json serves the document without a token', async () => {
    const response = await gateway.request('/v1/openapi.json', { anonymous: true });
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toContain('/v1/{slug}/conversation/notes');
  });

  it('answers 405 to another method on them', async () => {
    const response = await gateway.request('/healthz', { method: 'POST', anonymous: true });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });
});
