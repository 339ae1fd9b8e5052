import { randomUUID } from 'node:crypto';
import { disconnectMongo } from '@cmsg/dal';
import { type TestBusiness, WebhookReceiver, createTestBusiness } from '@cmsg/testing';
import { Webhook } from 'standardwebhooks';

jest.setTimeout(180_000);

/** Retries an assertion until it holds (deliveries are asynchronous). */
async function eventually(assertion: () => Promise<void>, { timeoutMs = 30_000 } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await assertion();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
}

const SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{43}=$/;

describe('webhook endpoints API (CONTRACT 9.2)', () => {
  const receivers: WebhookReceiver[] = [];

  async function receiver(answer?: ConstructorParameters<typeof WebhookReceiver>[0]): Promise<WebhookReceiver> {
    const started = new WebhookReceiver(answer);
    await started.start();
    receivers.push(started);
    return started;
  }

  afterAll(async () => {
    await Promise.all(receivers.map((started) => started.stop()));
    await disconnectMongo();
  });

  it('creates, lists, reads, changes and deletes an endpoint; the secret is shown on creation only', async () => {
    const business = await createTestBusiness();
    const { api } = business;
    const created = await api.post('/webhook-endpoints', { url: 'http://127.0.0.1:9/hooks/a', events: ['message.received', 'note.created'], description: 'CRM' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: 'http://127.0.0.1:9/hooks/a',
      events: ['message.received', 'note.created'],
      description: 'CRM',
      enabled: true,
      secret: expect.stringMatching(SECRET_PATTERN),
      created_at: expect.any(String),
    });
    const uuid = created.body.uuid as string;
    const second = await api.post('/webhook-endpoints', { url: 'http://127.0.0.1:9/hooks/b', events: ['*'] });
    expect(second.body).toMatchObject({ events: ['*'], description: null });

    const { secret: _secret, ...withoutSecret } = created.body;
    expect((await api.get(`/webhook-endpoints/${uuid}`)).body).toEqual(withoutSecret);
    const firstPage = await api.get('/webhook-endpoints', { limit: 1 });
    expect(firstPage.body).toEqual({ items: [withoutSecret], has_more: true, next_cursor: expect.any(String) });
    const secondPage = await api.get('/webhook-endpoints', { limit: 1, cursor: firstPage.body.next_cursor });
    expect(secondPage.body).toMatchObject({ items: [{ uuid: second.body.uuid }], has_more: false, next_cursor: '' });
    expect(JSON.stringify([firstPage.body, secondPage.body])).not.toContain('whsec_');

    const patched = await api.patch(`/webhook-endpoints/${uuid}`, { url: 'http://127.0.0.1:9/hooks/c', events: ['*'], description: null, enabled: false });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...withoutSecret, url: 'http://127.0.0.1:9/hooks/c', events: ['*'], description: null, enabled: false });
    expect((await api.patch(`/webhook-endpoints/${uuid}`, { enabled: true })).body).toMatchObject({ enabled: true, url: 'http://127.0.0.1:9/hooks/c' });

    const deleted = await api.delete(`/webhook-endpoints/${uuid}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ uuid, enabled: true });
    expect((await api.delete(`/webhook-endpoints/${uuid}`)).body.code).toBe('WEBHOOK_ENDPOINT_NOT_FOUND');
    expect((await api.get('/webhook-endpoints')).body.items.map((item: { uuid: string }) => item.uuid)).toEqual([second.body.uuid]);
  });

  it('answers every error code of the endpoints: unknown uuid, unknown event, bad URL, cursor of another filter', async () => {
    const { api } = await createTestBusiness();
    const unknown = randomUUID();
    for (const [method, path, body] of [
      ['GET', `/webhook-endpoints/${unknown}`, undefined],
      ['PATCH', `/webhook-endpoints/${unknown}`, { enabled: false }],
      ['DELETE', `/webhook-endpoints/${unknown}`, undefined],
      ['POST', `/webhook-endpoints/${unknown}/rotate-secret`, undefined],
      ['POST', `/webhook-endpoints/${unknown}/ping`, undefined],
      ['GET', `/webhook-endpoints/${unknown}/deliveries`, undefined],
      ['POST', `/webhook-endpoints/${unknown}/deliveries/${randomUUID()}/redeliver`, undefined],
    ] as const) {
      const response = await api.request(method, `/v1/${api.slug}${path}`, body === undefined ? undefined : JSON.stringify(body), { 'content-type': 'application/json' });
      expect({ method, path, status: response.status, code: response.body.code }).toEqual({ method, path, status: 404, code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
    }
    const refused = async (body: unknown) => {
      const response = await api.post('/webhook-endpoints', body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('INVALID_REQUEST');
      return response.body.message as string;
    };
    expect(await refused({ url: 'http://127.0.0.1:9/', events: ['message.exploded'] })).toContain('events');
    expect(await refused({ url: 'http://127.0.0.1:9/', events: ['*', 'message.sent'] })).toContain('"*"');
    expect(await refused({ url: 'http://127.0.0.1:9/', events: [] })).toContain('events');
    // The stack runs with WEBHOOK_ALLOW_PRIVATE_URLS=true: a public host still needs https.
    expect(await refused({ url: 'http://93.184.215.14/hook', events: ['*'] })).toContain('needs https');
    expect(await refused({ url: 'ftp://127.0.0.1/hook', events: ['*'] })).toContain('https or http');
    expect(await refused({ url: 'https://no-such-host.invalid/hook', events: ['*'] })).toContain('does not resolve');
    expect(await refused({ url: 'not a url', events: ['*'] })).toContain('absolute URL');

    const endpoint = (await api.post('/webhook-endpoints', { url: 'http://localhost:9/hook', events: ['*'] })).body;
    expect(endpoint.url).toBe('http://localhost:9/hook');
    const patchRefused = await api.patch(`/webhook-endpoints/${endpoint.uuid}`, { url: 'http://93.184.215.14/hook' });
    expect([patchRefused.status, patchRefused.body.code]).toEqual([400, 'INVALID_REQUEST']);
    expect((await api.patch(`/webhook-endpoints/${endpoint.uuid}`, { events: ['nope'] })).status).toBe(400);
    const redeliverUnknown = await api.post(`/webhook-endpoints/${endpoint.uuid}/deliveries/${randomUUID()}/redeliver`, {});
    expect([redeliverUnknown.status, redeliverUnknown.body.code]).toEqual([404, 'EVENT_NOT_FOUND']);
    const invalidStatus = await api.get(`/webhook-endpoints/${endpoint.uuid}/deliveries`, { status: 'lost' });
    expect(invalidStatus.status).toBe(400);
  });

  it('keeps 20 endpoints per business, also under 25 concurrent creates', async () => {
    const { api } = await createTestBusiness();
    const answers = await Promise.all(Array.from({ length: 25 }, (_, index) => api.post('/webhook-endpoints', { url: `http://127.0.0.1:9/hooks/${index}`, events: ['*'] })));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(20);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(refused.map((answer) => [answer.status, answer.body.code])).toEqual(Array.from({ length: 5 }, () => [409, 'WEBHOOK_ENDPOINT_LIMIT_REACHED']));
    const listed = await api.get('/webhook-endpoints', { limit: 100 });
    expect(listed.body.items).toHaveLength(20);
    await api.delete(`/webhook-endpoints/${listed.body.items[0].uuid}`);
    expect((await api.post('/webhook-endpoints', { url: 'http://127.0.0.1:9/hooks/again', events: ['*'] })).status).toBe(201);
    expect((await api.post('/webhook-endpoints', { url: 'http://127.0.0.1:9/hooks/over', events: ['*'] })).status).toBe(409);
  });

  it("isolates businesses: another business's endpoint is 404 on every route and its deliveries are never listed", async () => {
    const hook = await receiver();
    const [owner, stranger] = [await createTestBusiness(), await createTestBusiness()];
    const theirs = (await owner.api.post('/webhook-endpoints', { url: `${hook.url}/owner`, events: ['*'] })).body;
    const ping = (await owner.api.post(`/webhook-endpoints/${theirs.uuid}/ping`, {})).body;
    for (const [method, path] of [
      ['GET', ''],
      ['PATCH', ''],
      ['DELETE', ''],
      ['POST', '/rotate-secret'],
      ['POST', '/ping'],
      ['GET', '/deliveries'],
      ['POST', `/deliveries/${ping.event_id}/redeliver`],
    ] as const) {
      const response = await stranger.api.request(method, `/v1/${stranger.slug}/webhook-endpoints/${theirs.uuid}${path}`, method === 'PATCH' ? JSON.stringify({ enabled: false }) : undefined, {
        'content-type': 'application/json',
      });
      expect({ method, path, status: response.status, code: response.body.code }).toEqual({ method, path, status: 404, code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
    }
    const own = (await stranger.api.post('/webhook-endpoints', { url: `${hook.url}/stranger`, events: ['*'] })).body;
    await stranger.api.post(`/webhook-endpoints/${own.uuid}/ping`, {});
    await eventually(async () => expect(hook.delivered().size).toBe(2));
    const listed = (await stranger.api.get(`/webhook-endpoints/${own.uuid}/deliveries`)).body.items.map((item: { event_id: string }) => item.event_id);
    expect(listed).toHaveLength(1);
    expect(listed).not.toContain(ping.event_id);
    expect((await stranger.api.get('/webhook-endpoints')).body.items.map((item: { uuid: string }) => item.uuid)).toEqual([own.uuid]);
    expect((await owner.api.get(`/webhook-endpoints/${theirs.uuid}`)).body.enabled).toBe(true);
  });

  it('pings an endpoint, lists the delivery, redelivers it, and signs with both secrets while a rotation overlaps', async () => {
    const hook = await receiver();
    const business: TestBusiness = await createTestBusiness();
    const { api } = business;
    // Subscribed to one type only: a ping reaches it all the same.
    const endpoint = (await api.post('/webhook-endpoints', { url: `${hook.url}/hooks`, events: ['note.created'] })).body;
    const ping = await api.post(`/webhook-endpoints/${endpoint.uuid}/ping`, {});
    expect(ping.status).toBe(202);
    expect(ping.body).toMatchObject({ event_id: expect.any(String), type: 'ping', status: 'pending', attempts: 0 });
    await eventually(async () => expect(hook.delivered().has(ping.body.event_id)).toBe(true));
    const [request] = hook.received;
    expect(JSON.parse(request!.body)).toEqual({
      id: ping.body.event_id,
      type: 'ping',
      created_at: expect.any(String),
      business: { slug: business.slug },
      conversation: null,
      sequence: 0,
      data: {},
    });
    expect(request!.headers['webhook-id']).toBe(ping.body.event_id);
    expect(new Webhook(endpoint.secret).verify(request!.body, request!.headers as Record<string, string>)).toMatchObject({ id: ping.body.event_id });

    await eventually(async () => {
      const listed = await api.get(`/webhook-endpoints/${endpoint.uuid}/deliveries`);
      expect(listed.body.items).toEqual([
        { event_id: ping.body.event_id, type: 'ping', status: 'succeeded', attempts: 1, last_attempt_at: expect.any(String), last_status_code: 200, next_attempt_at: null },
      ]);
    });
    expect((await api.get(`/webhook-endpoints/${endpoint.uuid}/deliveries`, { status: 'failed' })).body.items).toEqual([]);

    const rotated = await api.post(`/webhook-endpoints/${endpoint.uuid}/rotate-secret`, {});
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(SECRET_PATTERN);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    const redelivered = await api.post(`/webhook-endpoints/${endpoint.uuid}/deliveries/${ping.body.event_id}/redeliver`, {});
    expect(redelivered.status).toBe(202);
    expect(redelivered.body).toMatchObject({ event_id: ping.body.event_id, status: 'pending', attempts: 0 });
    await eventually(async () => expect(hook.received).toHaveLength(2));
    const again = hook.received[1]!;
    expect(again.body).toBe(request!.body);
    expect(String(again.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [rotated.body.secret, endpoint.secret]) {
      expect(new Webhook(secret).verify(again.body, again.headers as Record<string, string>)).toMatchObject({ id: ping.body.event_id });
    }
    expect(String(again.headers['x-webhook-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);

    // Two pages of one, newest first, the status filter bound into the cursor.
    const secondPing = (await api.post(`/webhook-endpoints/${endpoint.uuid}/ping`, {})).body;
    await eventually(async () => expect(hook.delivered().size).toBe(2));
    await eventually(async () => expect((await api.get(`/webhook-endpoints/${endpoint.uuid}/deliveries`, { status: 'succeeded' })).body.items).toHaveLength(2));
    const page = await api.get(`/webhook-endpoints/${endpoint.uuid}/deliveries`, { status: 'succeeded', limit: 1 });
    expect(page.body.items.map((item: { event_id: string }) => item.event_id)).toEqual([secondPing.event_id]);
    const next = await api.get(`/webhook-endpoints/${endpoint.uuid}/deliveries`, { status: 'succeeded', limit: 1, cursor: page.body.next_cursor });
    expect(next.body).toMatchObject({ items: [{ event_id: ping.body.event_id }], has_more: false });
    const otherFilter = await api.get(`/webhook-endpoints/${endpoint.uuid}/deliveries`, { limit: 1, cursor: page.body.next_cursor });
    expect([otherFilter.status, otherFilter.body.code]).toEqual([400, 'INVALID_CURSOR']);
  });

  it('delivers every event to a receiver that answers 500 a few times first (each webhook-id arrives)', async () => {
    const hook = await receiver(({ index }) => (index < 4 ? 500 : 200));
    const { api } = await createTestBusiness();
    const endpoint = (await api.post('/webhook-endpoints', { url: `${hook.url}/flaky`, events: ['*'] })).body;
    const events: string[] = [];
    for (let index = 0; index < 3; index += 1) events.push((await api.post(`/webhook-endpoints/${endpoint.uuid}/ping`, {})).body.event_id);
    await eventually(async () => expect([...hook.delivered().keys()].sort()).toEqual([...events].sort()), { timeoutMs: 60_000 });
    expect(hook.received.filter((request) => request.answered === 500)).toHaveLength(4);
    await eventually(async () => {
      const items = (await api.get(`/webhook-endpoints/${endpoint.uuid}/deliveries`)).body.items as { status: string; attempts: number }[];
      expect(items.every((item) => item.status === 'succeeded')).toBe(true);
      expect(items.reduce((sum, item) => sum + item.attempts, 0)).toBe(hook.received.length);
    });
  });
});
