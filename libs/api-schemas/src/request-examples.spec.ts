import { PUBLIC_ENDPOINTS } from './public-endpoints';

describe('request examples of the public endpoints', () => {
  it.each(PUBLIC_ENDPOINTS.filter((endpoint) => endpoint.schemas.body).map((endpoint) => [endpoint.operationId, endpoint] as const))(
    '%s: has a body example the endpoint accepts',
    (_id, endpoint) => {
      expect(endpoint.requestExample?.body).toBeDefined();
      const parsed = endpoint.schemas.body!.safeParse(endpoint.requestExample!.body);
      expect(parsed.success ? 'accepted' : parsed.error.message).toBe('accepted');
    },
  );

  it.each(PUBLIC_ENDPOINTS.filter((endpoint) => endpoint.schemas.query).map((endpoint) => [endpoint.operationId, endpoint] as const))(
    '%s: has a query example the endpoint accepts, naming only its parameters',
    (_id, endpoint) => {
      const query = endpoint.requestExample?.query;
      expect(query).toBeDefined();
      expect(Object.keys(query!).length).toBeGreaterThan(0);
      for (const name of Object.keys(query!)) expect(Object.keys(endpoint.schemas.query!.shape)).toContain(name);
      const parsed = endpoint.schemas.query!.safeParse(query);
      expect(parsed.success ? 'accepted' : parsed.error.message).toBe('accepted');
    },
  );

  it('has no example where there is nothing to send', () => {
    for (const endpoint of PUBLIC_ENDPOINTS) {
      if (!endpoint.schemas.body) expect(endpoint.requestExample?.body).toBeUndefined();
      if (!endpoint.schemas.query) expect(endpoint.requestExample?.query).toBeUndefined();
    }
  });
});
