import { type BusinessScope, businessScope } from '@cmsg/dal';
import { endpointEntity, InMemoryWebhookStore } from '../testing/in-memory-webhook-store';
import { CachedEndpointDirectory } from './cached-endpoint-directory';

function newEndpoint(id: string) {
  const { business_id: _business, slot: _slot, ...endpoint } = endpointEntity({ _id: id });
  return endpoint;
}

describe('CachedEndpointDirectory', () => {
  const b1 = businessScope('b1');
  const b2 = businessScope('b2');
  const changed = { updated_at: new Date('2026-01-02T00:00:00Z') };
  let store: InMemoryWebhookStore;
  let clock: number;
  let redisDown: boolean;
  let versionReads: number;
  /** When set, a version read waits for it before it reads. */
  let versionGate: Promise<void> | undefined;
  let directory: CachedEndpointDirectory;
  const ids = async (scope: BusinessScope) => (await directory.enabledTargetsOf(scope)).map((endpoint) => endpoint._id).sort();

  beforeEach(() => {
    store = new InMemoryWebhookStore();
    store.endpoints.push(
      endpointEntity({ _id: 'a', events: ['*'] }),
      endpointEntity({ _id: 'b', events: ['note.created'] }),
      endpointEntity({ _id: 'off', enabled: false }),
      endpointEntity({ _id: 'theirs', business_id: 'b2' }),
    );
    clock = 0;
    redisDown = false;
    versionReads = 0;
    versionGate = undefined;
    const versions = {
      current: async (scope: BusinessScope) => {
        versionReads += 1;
        const gate = versionGate;
        if (gate) await gate;
        return redisDown ? Promise.reject(new Error('ECONNREFUSED')) : store.listVersions.current(scope);
      },
    };
    directory = new CachedEndpointDirectory(store.endpointRepository, versions, { lifetimeMs: 60_000, maxBusinesses: 2, now: () => clock });
  });

  it('answers the enabled endpoints with what they subscribe to, reading the list once while its version stays', async () => {
    expect(await directory.enabledTargetsOf(b1)).toEqual([
      { _id: 'a', enabled: true, events: ['*'] },
      { _id: 'b', enabled: true, events: ['note.created'] },
    ]);
    clock = 59_999;
    for (let event = 0; event < 5; event += 1) expect(await ids(b1)).toEqual(['a', 'b']);
    expect(store.listReads).toBe(1);
  });

  it.each([
    ['created', () => store.endpointRepository.insertInFreeSlot(b1, newEndpoint('new')), ['a', 'b', 'new']],
    ['disabled by PATCH', () => store.endpointRepository.update(b1, 'a', { enabled: false, ...changed }), ['b']],
    ['enabled by PATCH', () => store.endpointRepository.update(b1, 'off', { enabled: true, ...changed }), ['a', 'b', 'off']],
    ['deleted', () => store.endpointRepository.delete(b1, 'b'), ['a']],
    ['disabled after failing', async () => {
      store.endpoint('a')!.failing_since = new Date('2026-01-01T00:00:00Z');
      return store.endpointRepository.disableIfFailingSince(b1, 'a', new Date('2026-01-04T00:00:00Z'), new Date('2026-01-04T00:00:00Z'));
    }, ['b']],
  ])('reads the list again once a change bumped its version: %s', async (_change, change, expected) => {
    expect(await ids(b1)).toEqual(['a', 'b']);
    await change();
    expect(await ids(b1)).toEqual(expected);
    expect(store.listReads).toBe(2);
  });

  it('follows a changed subscription at once', async () => {
    await ids(b1);
    await store.endpointRepository.update(b1, 'b', { events: ['message.sent'], ...changed });
    expect((await directory.enabledTargetsOf(b1)).find((endpoint) => endpoint._id === 'b')?.events).toEqual(['message.sent']);
  });

  it('reads the list again after its lifetime even when the version stayed (a change whose bump was lost)', async () => {
    await ids(b1);
    store.endpoint('a')!.enabled = false;
    clock = 59_999;
    expect(await ids(b1)).toEqual(['a', 'b']);
    clock = 60_000;
    expect(await ids(b1)).toEqual(['b']);
    expect(store.listReads).toBe(2);
  });

  it('reads MongoDB for every event while the version cannot be read, and trusts nothing it kept from before', async () => {
    await ids(b1);
    redisDown = true;
    store.endpoint('a')!.enabled = false;
    expect(await ids(b1)).toEqual(['b']);
    expect(await ids(b1)).toEqual(['b']);
    expect(store.listReads).toBe(3);
    redisDown = false;
    store.endpoint('a')!.enabled = true;
    expect(await ids(b1)).toEqual(['a', 'b']);
    expect(store.listReads).toBe(4);
  });

  it("keeps each business's list apart: a change of one business reads only that business again", async () => {
    expect(await ids(b1)).toEqual(['a', 'b']);
    expect(await ids(b2)).toEqual(['theirs']);
    await store.endpointRepository.delete(b2, 'theirs');
    expect(await ids(b2)).toEqual([]);
    expect(await ids(b1)).toEqual(['a', 'b']);
    expect(store.listReads).toBe(3);
  });

  it('shares one read among the events of a business that arrive while it is under way', async () => {
    const lists = await Promise.all(Array.from({ length: 10 }, () => ids(b1)));
    expect(lists).toEqual(Array.from({ length: 10 }, () => ['a', 'b']));
    expect(store.listReads).toBe(1);
  });

  it('reads the version once for the events of a business that arrive in one turn, once per business', async () => {
    const lists = await Promise.all([ids(b1), ids(b1), ids(b2), ids(b1)]);
    expect(lists).toEqual([['a', 'b'], ['a', 'b'], ['theirs'], ['a', 'b']]);
    expect(versionReads).toBe(2);
    await ids(b1);
    expect(versionReads).toBe(3);
  });

  it('never shares a version read that began before an event: an event after a change was answered sees the change', async () => {
    expect(await ids(b1)).toEqual(['a', 'b']);
    let release!: () => void;
    versionGate = new Promise((resolve) => (release = resolve));
    const before = ids(b1);
    // The first event's version read is under way (the turn it arrived in has ended)...
    await new Promise((resolve) => setImmediate(resolve));
    expect(versionReads).toBe(2);
    // ...when a change is answered, and then an event is recorded.
    versionGate = undefined;
    await store.endpointRepository.update(b1, 'b', { enabled: false, ...changed });
    expect(await ids(b1)).toEqual(['a']);
    release();
    await before;
    expect(versionReads).toBe(3);
  });

  it('reads again when a change lands while the list is being read (the version read before the list is stale by then)', async () => {
    const read = store.endpointRepository.listFanOutTargets;
    store.endpointRepository.listFanOutTargets = async (scope) => {
      const before = await read(scope);
      await store.endpointRepository.update(b1, 'b', { enabled: false, ...changed });
      return before;
    };
    expect(await ids(b1)).toEqual(['a', 'b']);
    store.endpointRepository.listFanOutTargets = read;
    expect(await ids(b1)).toEqual(['a']);
  });

  it('keeps at most maxBusinesses lists, dropping the least recently used', async () => {
    store.endpoints.push(endpointEntity({ _id: 'third', business_id: 'b3' }));
    await ids(b1);
    await ids(b2);
    await ids(b1);
    await ids(businessScope('b3'));
    expect(store.listReads).toBe(3);
    await ids(b1);
    expect(store.listReads).toBe(3);
    await ids(b2);
    expect(store.listReads).toBe(4);
  });
});
