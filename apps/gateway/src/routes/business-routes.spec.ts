import { PUBLIC_ENDPOINTS, buildOpenApiDocument, openApiPathOf } from '@cmsg/api-schemas';
import { BUSINESS_ROUTES } from './business-routes';

const key = (endpoint: { method: string; path: string }) => `${endpoint.method} ${endpoint.path}`;

describe('BUSINESS_ROUTES', () => {
  it('routes exactly the public endpoints, each once', () => {
    expect(BUSINESS_ROUTES.map((route) => key(route.endpoint)).sort()).toEqual(PUBLIC_ENDPOINTS.map(key).sort());
  });

  it('every route is in the OpenAPI document', () => {
    const paths = buildOpenApiDocument().paths ?? {};
    for (const { endpoint } of BUSINESS_ROUTES) {
      expect((paths[`/v1/{slug}${openApiPathOf(endpoint.path)}`] as Record<string, unknown> | undefined)?.[endpoint.method]).toBeDefined();
    }
  });
});
