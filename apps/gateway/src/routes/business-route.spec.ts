import { assignTagsEndpoint } from '@cmsg/api-schemas';
import { type BusinessRoute, type RouteServices, StatusResponse, businessRoute } from './business-route';

// The pipeline hands every route the request parsed by that route's own endpoint schemas.
const request = {
  params: undefined,
  query: undefined,
  body: { conversation: { uuid: 'c' }, tags: [{ name: 'vip' }] },
  caller: { business_id: 'b', token_uuid: 't' },
} as unknown as Parameters<BusinessRoute['handle']>[0];
const upstreams = {} as RouteServices;
const body = { conversation: { uuid: '11111111-2222-4333-8444-555555555555' }, tags: [] };

describe('businessRoute', () => {
  it("answers the endpoint's success status with the mapped body", async () => {
    const route = businessRoute(assignTagsEndpoint, { call: async () => 'upstream', toResponse: () => body });
    expect(await route.handle(request, upstreams)).toEqual({ status: 200, body });
  });

  it('lets the mapper choose another status with a StatusResponse', async () => {
    const multiStatus = { ...body, results: [] };
    const route = businessRoute(assignTagsEndpoint, { call: async () => 'upstream', toResponse: () => new StatusResponse(207, multiStatus) });
    expect(await route.handle(request, upstreams)).toEqual({ status: 207, body: multiStatus });
  });

  it('passes what the upstream call answered to the mapper', async () => {
    const toResponse = jest.fn().mockReturnValue(body);
    await businessRoute(assignTagsEndpoint, { call: async (_upstreams, { body: input }) => input.tags, toResponse }).handle(request, upstreams);
    expect(toResponse).toHaveBeenCalledWith([{ name: 'vip' }]);
  });
});
