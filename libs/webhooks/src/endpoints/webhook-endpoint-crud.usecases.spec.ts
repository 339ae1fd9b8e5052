import { businessScope, WEBHOOK_ENDPOINT_LIMIT } from '@cmsg/dal';
import { type EndpointPortsOptions, inMemoryEndpointPorts, tableResolver } from '../testing/in-memory-endpoint-ports';
import { endpointEntity, InMemoryWebhookStore } from '../testing/in-memory-webhook-store';
import { createWebhookEndpoint, deleteWebhookEndpoint, getWebhookEndpoint, listWebhookEndpoints, updateWebhookEndpoint } from './webhook-endpoint-crud.usecases';
import { MAX_WEBHOOK_DESCRIPTION_LENGTH } from './webhook-endpoint-rules';

const mine = businessScope('b1');
const theirs = businessScope('b2');

const dns = tableResolver({
  'hooks.example.com': ['93.184.215.14'],
  'other.example.com': ['93.184.215.15'],
  'rebind.example.com': ['93.184.215.14', '10.0.0.5'],
});

describe('webhook endpoint CRUD use cases', () => {
  let store: InMemoryWebhookStore;
  let now: Date;
  const ports = (options: Partial<EndpointPortsOptions> = {}) => inMemoryEndpointPorts(store, { now: () => now, resolve: dns, ...options });
  const create = (input: Parameters<typeof createWebhookEndpoint>[2], scope = mine) => createWebhookEndpoint(ports(), scope, input);
  const update = (uuid: string, input: Parameters<typeof updateWebhookEndpoint>[3], scope = mine) => updateWebhookEndpoint(ports(), scope, uuid, input);

  beforeEach(() => {
    store = new InMemoryWebhookStore();
    now = new Date('2026-03-01T10:00:00Z');
  });

  describe('createWebhookEndpoint', () => {
    it('stores an enabled endpoint of the business with a new secret, shown in this answer only', async () => {
      const created = await create({ url: 'https://hooks.example.com/cmsg', events: ['message.received', 'note.created'], description: 'CRM' });
      expect(created).toEqual({
        uuid: expect.any(String),
        url: 'https://hooks.example.com/cmsg',
        events: ['message.received', 'note.created'],
        description: 'CRM',
        enabled: true,
        created_at: '2026-03-01T10:00:00.000Z',
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      });
      expect(store.endpoints).toHaveLength(1);
      expect(store.endpoints[0]).toMatchObject({
        _id: created.uuid,
        business_id: 'b1',
        enabled: true,
        failing_since: null,
        secrets: [{ secret: created.secret, expires_at: null }],
        created_at: now,
        updated_at: now,
      });
      const read = await getWebhookEndpoint(ports(), mine, created.uuid);
      expect(read).not.toHaveProperty('secret');
      expect(JSON.stringify(read)).not.toContain(created.secret);
    });

    it('gives every endpoint its own uuid and secret', async () => {
      const first = await create({ url: 'https://hooks.example.com/a', events: ['*'] });
      const second = await create({ url: 'https://hooks.example.com/a', events: ['*'] });
      expect(second.uuid).not.toBe(first.uuid);
      expect(second.secret).not.toBe(first.secret);
    });

    it('drops repeated event types, keeps "*" alone, and stores a missing description as null', async () => {
      expect((await create({ url: 'https://hooks.example.com/a', events: ['note.created', 'message.sent', 'note.created'] })).events).toEqual(['note.created', 'message.sent']);
      expect((await create({ url: 'https://hooks.example.com/a', events: ['*', '*'], description: null })).events).toEqual(['*']);
      expect(store.endpoints.map((endpoint) => endpoint.description)).toEqual([null, null]);
    });

    it(`accepts a description of ${MAX_WEBHOOK_DESCRIPTION_LENGTH} characters`, async () => {
      const description = 'd'.repeat(MAX_WEBHOOK_DESCRIPTION_LENGTH);
      expect((await create({ url: 'https://hooks.example.com/a', events: ['*'], description })).description).toBe(description);
    });

    it.each([
      ['no event type', { events: [] }, /events: at least one/],
      ['"*" beside another type', { events: ['*', 'note.created'] }, /stands alone/],
      ['an unknown event type', { events: ['note.created', 'note.deleted'] }, /unknown event type "note.deleted"/],
      ['a description too long', { description: 'd'.repeat(MAX_WEBHOOK_DESCRIPTION_LENGTH + 1) }, /description: at most 500/],
      ['a URL that is not absolute', { url: '/hook' }, /^url: the URL is not an absolute URL/],
      ['http to a public host', { url: 'http://hooks.example.com/a' }, /^url: the URL must use https/],
      ['a private IP', { url: 'https://10.1.2.3/hook' }, /^url: .*non-public/],
      ['a host with a private address among its public ones', { url: 'https://rebind.example.com/hook' }, /^url: the host rebind\.example\.com resolves to 10\.0\.0\.5/],
      ['a host that does not resolve', { url: 'https://nowhere.example.com/hook' }, /^url: the host nowhere\.example\.com does not resolve/],
    ])('refuses %s with INVALID_REQUEST and stores nothing', async (_case, input, message) => {
      await expect(create({ url: 'https://hooks.example.com/a', events: ['*'], ...input })).rejects.toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringMatching(message) });
      expect(store.endpoints).toEqual([]);
    });

    it('takes loopback and http URLs when private URLs are allowed', async () => {
      const created = await createWebhookEndpoint(ports({ allowPrivate: true }), mine, { url: 'http://127.0.0.1:9000/hook', events: ['*'] });
      expect(created.url).toBe('http://127.0.0.1:9000/hook');
    });

    it(`refuses the endpoint after ${WEBHOOK_ENDPOINT_LIMIT} with WEBHOOK_ENDPOINT_LIMIT_REACHED, per business, until one is deleted`, async () => {
      const created = [];
      for (let index = 0; index < WEBHOOK_ENDPOINT_LIMIT; index += 1) created.push(await create({ url: `https://hooks.example.com/${index}`, events: ['*'] }));
      await expect(create({ url: 'https://hooks.example.com/over', events: ['*'] })).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_LIMIT_REACHED' });
      expect(store.endpoints).toHaveLength(WEBHOOK_ENDPOINT_LIMIT);

      await expect(create({ url: 'https://hooks.example.com/theirs', events: ['*'] }, theirs)).resolves.toMatchObject({ url: 'https://hooks.example.com/theirs' });

      await deleteWebhookEndpoint(ports(), mine, created[3]!.uuid);
      await expect(create({ url: 'https://hooks.example.com/again', events: ['*'] })).resolves.toMatchObject({ url: 'https://hooks.example.com/again' });
    });
  });

  describe('getWebhookEndpoint', () => {
    beforeEach(() => {
      store.endpoints.push(endpointEntity({ _id: 'e1', description: 'mine', events: ['note.created'] }), endpointEntity({ _id: 'e2', business_id: 'b2' }));
    });

    it('answers the endpoint of the business, without its secrets', async () => {
      expect(await getWebhookEndpoint(ports(), mine, 'e1')).toEqual({
        uuid: 'e1',
        url: 'https://hooks.example.com/a',
        events: ['note.created'],
        description: 'mine',
        enabled: true,
        created_at: '2026-01-01T00:00:00.000Z',
      });
    });

    it("answers WEBHOOK_ENDPOINT_NOT_FOUND for an unknown uuid and for another business's endpoint alike", async () => {
      await expect(getWebhookEndpoint(ports(), mine, 'nope')).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
      await expect(getWebhookEndpoint(ports(), mine, 'e2')).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
      await expect(getWebhookEndpoint(ports(), theirs, 'e1')).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
    });
  });

  describe('listWebhookEndpoints', () => {
    const at = (minute: number) => new Date(`2026-01-01T00:0${minute}:00Z`);
    const list = (page: { cursor?: string; limit: number }, scope = mine) => listWebhookEndpoints(ports(), scope, { cursor: page.cursor ?? '', limit: page.limit });

    beforeEach(() => {
      store.endpoints.push(
        endpointEntity({ _id: 'e3', created_at: at(2) }),
        endpointEntity({ _id: 'e1', created_at: at(1) }),
        endpointEntity({ _id: 'e2b', created_at: at(1) }),
        endpointEntity({ _id: 'e2a', created_at: at(1) }),
        endpointEntity({ _id: 'x1', business_id: 'b2', created_at: at(0) }),
      );
    });

    it('lists the business endpoints oldest first (uuid breaking ties), without secrets', async () => {
      const page = await list({ limit: 10 });
      expect(page.items.map((item) => item.uuid)).toEqual(['e1', 'e2a', 'e2b', 'e3']);
      expect(page).toMatchObject({ has_more: false, next_cursor: '' });
      expect(page.items.every((item) => !('secret' in item) && !('secrets' in item))).toBe(true);
      expect((await list({ limit: 10 }, theirs)).items.map((item) => item.uuid)).toEqual(['x1']);
    });

    it('pages with a cursor until the last page, which has no cursor', async () => {
      const first = await list({ limit: 2 });
      expect(first.items.map((item) => item.uuid)).toEqual(['e1', 'e2a']);
      expect(first.has_more).toBe(true);
      const second = await list({ limit: 2, cursor: first.next_cursor });
      expect(second.items.map((item) => item.uuid)).toEqual(['e2b', 'e3']);
      expect(second).toMatchObject({ has_more: false, next_cursor: '' });
    });

    it('says there is no more when the page is exactly full', async () => {
      expect(await list({ limit: 4 })).toMatchObject({ has_more: false, next_cursor: '' });
    });

    it("never lists another business's endpoints, even with a cursor made in this one", async () => {
      const first = await list({ limit: 1 });
      const theirsAfter = await list({ limit: 10, cursor: first.next_cursor }, theirs);
      expect(theirsAfter.items).toEqual([]);
    });

    it('refuses a cursor of another list with INVALID_CURSOR', async () => {
      const cursor = ports().cursors.encode('webhook-deliveries:e1:all', 'asc', { sortAt: 0, id: 'e1' });
      await expect(list({ limit: 2, cursor })).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
    });
  });

  describe('updateWebhookEndpoint', () => {
    const failingSince = new Date('2026-02-20T00:00:00Z');

    beforeEach(() => {
      store.endpoints.push(
        endpointEntity({ _id: 'e1', description: 'old', events: ['note.created'], failing_since: failingSince }),
        endpointEntity({ _id: 'x1', business_id: 'b2', url: 'https://other.example.com/theirs' }),
      );
    });

    it('changes the fields given and only those, stamping updated_at', async () => {
      const updated = await update('e1', { url: 'https://other.example.com/new' });
      expect(updated).toEqual({ uuid: 'e1', url: 'https://other.example.com/new', events: ['note.created'], description: 'old', enabled: true, created_at: '2026-01-01T00:00:00.000Z' });
      expect(store.endpoint('e1')).toMatchObject({ url: 'https://other.example.com/new', failing_since: failingSince, updated_at: now, created_at: new Date('2026-01-01T00:00:00Z') });

      expect(await update('e1', { events: ['message.sent', 'message.sent'] })).toMatchObject({ url: 'https://other.example.com/new', events: ['message.sent'], description: 'old' });
      expect(await update('e1', { description: 'new' })).toMatchObject({ events: ['message.sent'], description: 'new' });
    });

    it('clears the description with null', async () => {
      expect((await update('e1', { description: null })).description).toBeNull();
      expect(store.endpoint('e1')!.description).toBeNull();
    });

    it('starts the failing streak afresh when enabling, and keeps it when disabling or leaving enabled alone', async () => {
      await update('e1', { description: 'x' });
      expect(store.endpoint('e1')!.failing_since).toEqual(failingSince);
      expect(await update('e1', { enabled: false })).toMatchObject({ enabled: false });
      expect(store.endpoint('e1')!.failing_since).toEqual(failingSince);
      expect(await update('e1', { enabled: true })).toMatchObject({ enabled: true });
      expect(store.endpoint('e1')!.failing_since).toBeNull();
    });

    it.each([
      ['no event type', { events: [] }],
      ['an unknown event type', { events: ['nope'] }],
      ['"*" beside another type', { events: ['*', 'note.created'] }],
      ['a description too long', { description: 'd'.repeat(MAX_WEBHOOK_DESCRIPTION_LENGTH + 1) }],
      ['http to a public host', { url: 'http://hooks.example.com/a' }],
      ['a loopback address', { url: 'https://127.0.0.1/hook' }],
    ])('refuses %s with INVALID_REQUEST and changes nothing', async (_case, input) => {
      const before = { ...store.endpoint('e1')! };
      await expect(update('e1', { enabled: false, ...input })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
      expect(store.endpoint('e1')).toEqual(before);
    });

    it("answers WEBHOOK_ENDPOINT_NOT_FOUND for an unknown uuid and for another business's endpoint, which stays as it was", async () => {
      await expect(update('nope', { enabled: false })).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
      const before = { ...store.endpoint('x1')! };
      await expect(update('x1', { url: 'https://hooks.example.com/hijack', enabled: false })).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
      expect(store.endpoint('x1')).toEqual(before);
    });
  });

  describe('deleteWebhookEndpoint', () => {
    beforeEach(() => {
      store.endpoints.push(endpointEntity({ _id: 'e1', description: 'going' }), endpointEntity({ _id: 'x1', business_id: 'b2' }));
    });

    it('removes the endpoint and answers it as it was', async () => {
      expect(await deleteWebhookEndpoint(ports(), mine, 'e1')).toMatchObject({ uuid: 'e1', description: 'going', enabled: true });
      expect(store.endpoint('e1')).toBeUndefined();
      await expect(getWebhookEndpoint(ports(), mine, 'e1')).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
    });

    it('answers WEBHOOK_ENDPOINT_NOT_FOUND when deleting it again', async () => {
      await deleteWebhookEndpoint(ports(), mine, 'e1');
      await expect(deleteWebhookEndpoint(ports(), mine, 'e1')).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
    });

    it("answers WEBHOOK_ENDPOINT_NOT_FOUND for another business's endpoint and leaves it", async () => {
      await expect(deleteWebhookEndpoint(ports(), mine, 'x1')).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
      expect(store.endpoint('x1')).toBeDefined();
    });

    it('answers WEBHOOK_ENDPOINT_NOT_FOUND when a concurrent delete removes it between the read and the delete', async () => {
      const racing = ports({
        endpoints: {
          findById: async (scope, id) => {
            const found = await store.endpointRepository.findById(scope, id);
            await store.endpointRepository.delete(scope, id);
            return found;
          },
        },
      });
      await expect(deleteWebhookEndpoint(racing, mine, 'e1')).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
    });
  });
});
