import { buildOpenApiDocument, openApiPathOf } from '@cmsg/api-schemas';
import { type GatewayHarness, startGatewayHarness } from './testing/gateway-harness';
import { servedRoutes } from './testing/served-routes';

/**
 * The gateway serves exactly what GET /v1/openapi.json documents: a route added to the app
 * without its operation in the document (or the other way round) fails here.
 */
describe('the OpenAPI document and the routes the gateway serves', () => {
  let harness: GatewayHarness;
  const document = buildOpenApiDocument();
  const documented = Object.entries(document.paths ?? {})
    .flatMap(([path, item]) => Object.keys(item as object).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();

  beforeAll(async () => {
    harness = await startGatewayHarness();
  });

  afterAll(async () => {
    await harness.close();
  });

  it('finds the routes of the app', () => {
    const served = servedRoutes(harness.app).map((route) => `${route.method.toUpperCase()} ${route.path}`);
    expect(served).toEqual(expect.arrayContaining(['GET /healthz', 'PUT /v1/uploads/:token', 'POST /webhooks/chat', 'POST /v1/:slug/conversation/status']));
  });

  it('documents every method and path the gateway serves', () => {
    const served = servedRoutes(harness.app).map((route) => `${route.method.toUpperCase()} ${openApiPathOf(route.path)}`);
    expect(served.filter((route) => !documented.includes(route))).toEqual([]);
  });

  it('serves every documented operation', () => {
    const served = new Set(servedRoutes(harness.app).map((route) => `${route.method.toUpperCase()} ${openApiPathOf(route.path)}`));
    expect(documented.filter((operation) => !served.has(operation))).toEqual([]);
  });
});
