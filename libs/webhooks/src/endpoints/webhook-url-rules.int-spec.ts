import { randomUUID } from 'node:crypto';
import { InProcessWebhookEndpointListVersions, WebhookDeliveryRepository, WebhookEndpointRepository, businessScope } from '@cmsg/dal';
import { isCatalogError } from '@cmsg/errors';
import { type AddressInfo, createServer } from 'node:net';
import { connectToOwnDatabase, dropConnectedDatabase } from '@cmsg/testing-database';
import { DEFAULT_WEBHOOK_RETRY_POLICY } from '../dispatch/retry-schedule';
import { WebhookDispatcher } from '../dispatch/webhook-dispatcher';
import { HttpWebhookTransport } from '../dispatch/webhook-transport';
import { CachedEndpointDirectory } from '../fan-out/cached-endpoint-directory';
import { WebhookFanOut } from '../fan-out/event-fan-out';
import { systemClock } from '../ports';
import { silentLogger } from '../testing/silent-logger';
import { createWebhookEndpoint, updateWebhookEndpoint } from './webhook-endpoint-crud.usecases';

/**
 * The URL rules without WEBHOOK_ALLOW_PRIVATE_URLS (the integration stack runs with it), on the
 * real use cases, the real MongoDB and the system resolver; and again at delivery time: an endpoint
 * stored while private URLs were allowed is not delivered to by a dispatcher that refuses them.
 */
describe('webhook URL rules on create, update and delivery (real MongoDB, system resolver)', () => {
  // This file's database is its own: no other process keeps its endpoint lists.
  const listVersions = new InProcessWebhookEndpointListVersions();
  const endpoints = new WebhookEndpointRepository(listVersions);
  const deliveries = new WebhookDeliveryRepository();
  const dependencies = (allowPrivate: boolean) => ({ endpoints, urlPolicy: { allowPrivate }, clock: systemClock });

  beforeAll(async () => {
    await connectToOwnDatabase('webhooks_url_it');
    await endpoints.ensureIndexes();
    await deliveries.ensureIndexes();
  });

  afterAll(async () => {
    await dropConnectedDatabase();
  });

  const refusal = async (promise: Promise<unknown>): Promise<string> => {
    try {
      await promise;
    } catch (error) {
      if (isCatalogError(error) && error.code === 'INVALID_REQUEST') return error.message;
      throw error;
    }
    throw new Error('accepted');
  };

  it.each([
    ['http to a public host', 'http://93.184.215.14/hook', /must use https/],
    ['a loopback address', 'https://127.0.0.1/hook', /non-public/],
    ['an IPv6 loopback', 'https://[::1]/hook', /non-public/],
    ['a private address', 'https://10.1.2.3/hook', /non-public/],
    ['a link-local address', 'https://169.254.169.254/latest/meta-data', /non-public/],
    ['localhost (resolves to 127.0.0.1)', 'https://localhost/hook', /localhost resolves to 127\.0\.0\.1/],
    ['http to localhost', 'http://localhost:8080/hook', /must use https/],
  ])('refuses %s without WEBHOOK_ALLOW_PRIVATE_URLS', async (_case, url, reason) => {
    const scope = businessScope(randomUUID());
    expect(await refusal(createWebhookEndpoint(dependencies(false), scope, { url, events: ['*'] }))).toMatch(reason);
    expect(await endpoints.listPage(scope, null, 20)).toEqual([]);
  });

  it('with WEBHOOK_ALLOW_PRIVATE_URLS accepts loopback, private and localhost, over http too, but not http to a public host', async () => {
    const scope = businessScope(randomUUID());
    for (const url of ['http://127.0.0.1:9/hook', 'https://10.1.2.3/hook', 'http://localhost:9/hook', 'http://[::1]:9/hook']) {
      await expect(createWebhookEndpoint(dependencies(true), scope, { url, events: ['*'] })).resolves.toMatchObject({ url });
    }
    expect(await refusal(createWebhookEndpoint(dependencies(true), scope, { url: 'http://93.184.215.14/hook', events: ['*'] }))).toMatch(/needs https/);
    const [first] = await endpoints.listPage(scope, null, 20);
    expect(await refusal(updateWebhookEndpoint(dependencies(false), scope, first!._id, { url: 'https://localhost/hook' }))).toMatch(/127\.0\.0\.1/);
    expect((await endpoints.findById(scope, first!._id))!.url).toBe(first!.url);
  });

  it('checks again at delivery time: a dispatcher without the allowance does not connect to a loopback endpoint', async () => {
    // Counts connections: none may arrive, over http or over https to a name resolving to loopback.
    let connections = 0;
    const receiver = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as AddressInfo).port;
    const scope = businessScope(randomUUID());
    const overHttp = await createWebhookEndpoint(dependencies(true), scope, { url: `http://127.0.0.1:${port}/hook`, events: ['*'] });
    // The name is resolved by the connection's own lookup, which refuses before connecting.
    const byName = await createWebhookEndpoint(dependencies(true), scope, { url: `https://localhost:${port}/hook`, events: ['*'] });
    const fanOut = new WebhookFanOut({ directory: new CachedEndpointDirectory(endpoints, listVersions), endpoints, deliveries, clock: systemClock });
    for (const endpoint of [overHttp, byName]) {
      await fanOut.fanOut(
        { _id: randomUUID(), business_id: scope.businessId, business_slug: 'url-rules', conversation_id: null, sequence: 0, type: 'ping', data: {}, created_at: new Date() },
        { endpointId: endpoint.uuid },
      );
    }
    const transport = new HttpWebhookTransport({ allowPrivate: false });
    const dispatcher = new WebhookDispatcher(
      { deliveries, endpoints, transport, clock: systemClock, logger: silentLogger },
      { retry: DEFAULT_WEBHOOK_RETRY_POLICY, concurrency: 4, endpointConcurrency: 2, idleMs: 50, attemptTimeoutMs: 10_000, disableAfterMs: 3_600_000 },
    );
    expect((await dispatcher.dispatchDue()).started).toBe(2);
    await dispatcher.settled();
    transport.destroy();
    await new Promise((resolve) => receiver.close(resolve));
    expect(connections).toBe(0);
    const [httpDelivery] = await deliveries.listPage(scope, overHttp.uuid, null, null, 10);
    expect(httpDelivery).toMatchObject({ status: 'pending', attempts: 1, last_status_code: null, last_error: 'the URL must use https' });
    const [namedDelivery] = await deliveries.listPage(scope, byName.uuid, null, null, 10);
    expect(namedDelivery).toMatchObject({ status: 'pending', attempts: 1, last_status_code: null, last_error: expect.stringMatching(/localhost resolves to 127\.0\.0\.1.*non-public/) });
  });
});
