import { buildOpenApiDocument } from '@cmsg/api-schemas';
import { type GatewayHarness, startGatewayHarness } from '../testing/gateway-harness';
import { API_REFERENCE_CSP } from './content-security-policy';

describe('the API reference routes', () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGatewayHarness();
  });
  afterAll(() => gateway.close());

  it('GET /docs is the page, without a token, under the strict CSP', async () => {
    const response = await gateway.request('/docs', { anonymous: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(API_REFERENCE_CSP);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await response.text();
    expect(html).toContain('<script src="/docs/assets/swagger-ui-bundle.js"></script>');
    expect(html).toContain('<script src="/docs/assets/api-reference.js"></script>');
    expect(html).toContain('<a href="/docs/guides/integrating">Integrating</a>');
    // No inline script: the CSP would refuse it.
    expect(html.match(/<script[^>]*>/g)?.every((tag) => /src="\/docs\/assets\//.test(tag))).toBe(true);
  });

  it('the CSP allows nothing from another origin, no inline script and no eval', () => {
    expect(API_REFERENCE_CSP).toContain("default-src 'none'");
    expect(API_REFERENCE_CSP).toContain("script-src 'self';");
    expect(API_REFERENCE_CSP).toContain("connect-src 'self'");
    expect(API_REFERENCE_CSP).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
  });

  it.each([
    ['swagger-ui-bundle.js', /javascript/],
    ['swagger-ui.css', /text\/css/],
    ['api-reference.js', /javascript/],
    ['api-reference.css', /text\/css/],
    ['favicon-32x32.png', /image\/png/],
  ])('serves the asset %s from the gateway itself', async (asset, contentType) => {
    const response = await gateway.request(`/docs/assets/${asset}`, { anonymous: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(contentType);
    expect(response.headers.get('cache-control')).toBe('public, max-age=600');
    expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(100);
  });

  it.each(['index.html', 'package.json', '..%2Fpackage.json', '.env', 'swagger-ui-bundle.js.map'])('answers 404 NOT_FOUND for any other file: %s', async (asset) => {
    const response = await gateway.request(`/docs/assets/${asset}`, { anonymous: true });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ code: 'NOT_FOUND', message: expect.any(String) });
  });

  it('lists the guides and serves each, with links between them rewritten to their pages', async () => {
    const index = await (await gateway.request('/docs/guides', { anonymous: true })).text();
    expect(index).toContain('<a href="/docs/guides/broadcasts">Broadcasts and the send engine (CONTRACT 10.4, 10.5)</a>');
    const response = await gateway.request('/docs/guides/integrating', { anonymous: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe(API_REFERENCE_CSP);
    const html = await response.text();
    expect(html).toMatch(/<h1 id="integrating-[^"]*">Integrating/);
    expect(html).toContain('href="/docs/guides/broadcasts');
    expect(html).not.toMatch(/href="[^"]*\.md/);
  });

  it('answers 404 NOT_FOUND for an unknown guide and 405 for another method', async () => {
    const unknown = await gateway.request('/docs/guides/..%2F..%2Fpackage', { anonymous: true });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ code: 'NOT_FOUND', message: expect.any(String) });
    const post = await gateway.request('/docs', { method: 'POST', anonymous: true });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('the document names every asset the page loads in its asset parameter', async () => {
    const html = await (await gateway.request('/docs', { anonymous: true })).text();
    const loaded = [...html.matchAll(/(?:src|href)="\/docs\/assets\/([^"]+)"/g)].map((match) => match[1]!);
    const parameter = JSON.stringify(buildOpenApiDocument().paths?.['/docs/assets/{asset}']);
    for (const asset of loaded) expect({ asset, documented: parameter.includes(asset) }).toEqual({ asset, documented: true });
  });
});
