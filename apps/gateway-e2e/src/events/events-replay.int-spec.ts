import { randomUUID } from 'node:crypto';
import { type TestBusiness, contactSeed, createTestBusiness, storedCollection } from '@cmsg/testing';
import { type StoredEvent, envelopeOf, settledEvents } from './event-fixtures';

jest.setTimeout(240_000);

/**
 * GET /{slug}/events and /events/{id} (CONTRACT 9.2 replay): the business's events of the last 30
 * days, oldest first, in the envelope a webhook carries; filters combined with AND and bound to the
 * cursor; another business's events are never listed or found.
 */
describe('GET /events', () => {
  let business: TestBusiness;
  let other: TestBusiness;
  const tags = { a: randomUUID(), b: randomUUID(), c: randomUUID() };
  const conversations = { first: randomUUID(), second: randomUUID(), otherBusiness: randomUUID() };
  let all: StoredEvent[] = [];
  let otherEvent: StoredEvent;

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      seed.tags = [
        { uuid: tags.a, name: 'A', color: '#a00' },
        { uuid: tags.b, name: 'B', color: '#0b0' },
        { uuid: tags.c, name: 'C', color: '#00c' },
      ];
      contactSeed(seed, { conversation: { uuid: conversations.first, inbox_status: 'resolved' } });
      contactSeed(seed, { conversation: { uuid: conversations.second, inbox_status: 'resolved' } });
    });
    other = await createTestBusiness((seed) => contactSeed(seed, { conversation: { uuid: conversations.otherBusiness, inbox_status: 'resolved' } }));

    const first = { uuid: conversations.first };
    const second = { uuid: conversations.second };
    for (const [path, body] of [
      ['/conversation/tags', { conversation: first, tags: [{ uuid: tags.a }] }],
      ['/conversation/pending', { conversation: second }],
      ['/conversation/tags', { conversation: second, tags: [{ uuid: tags.b }] }],
      ['/conversation/notes', { conversation: first, note: 'one' }],
      ['/conversation/tags', { conversation: first, tags: [{ uuid: tags.c }] }],
      ['/conversation/resolve', { conversation: second }],
    ] as const) {
      expect((await business.api.post(path, body)).status).toBeLessThan(300);
    }
    expect((await other.api.post('/conversation/pending', { conversation: { uuid: conversations.otherBusiness } })).status).toBe(200);
    const firstEvents = await settledEvents(conversations.first, 3);
    const secondEvents = await settledEvents(conversations.second, 3);
    all = [...firstEvents, ...secondEvents].sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
    [otherEvent] = (await settledEvents(conversations.otherBusiness, 1)) as [StoredEvent];
  });

  it('lists every event of the business oldest first, each in its webhook envelope', async () => {
    const response = await business.api.get('/events');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ items: all.map(envelopeOf), has_more: false, next_cursor: '' });
    expect(response.body.items.map((item: { type: string }) => item.type)).toEqual([
      'conversation.tags_changed',
      'conversation.inbox_status_changed',
      'conversation.tags_changed',
      'note.created',
      'conversation.tags_changed',
      'conversation.inbox_status_changed',
    ]);
  });

  it('pages with a cursor, and the pages add up to the list', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await business.api.get('/events', { limit: 4, cursor });
      expect(page.status).toBe(200);
      seen.push(...page.body.items.map((item: { id: string }) => item.id));
      cursor = page.body.has_more ? page.body.next_cursor : undefined;
      if (!page.body.has_more) expect(page.body.next_cursor).toBe('');
      pages += 1;
    } while (cursor);
    expect(pages).toBe(2);
    expect(seen).toEqual(all.map((event) => event._id));
  });

  it('filters by type, conversation and time, combined, each bound to its cursor', async () => {
    const byType = await business.api.get('/events', { type: 'conversation.tags_changed', limit: 2 });
    expect(byType.body.items).toEqual(all.filter((event) => event.type === 'conversation.tags_changed').slice(0, 2).map(envelopeOf));
    expect(byType.body.has_more).toBe(true);
    const rest = await business.api.get('/events', { type: 'conversation.tags_changed', limit: 2, cursor: byType.body.next_cursor });
    expect(rest.body).toEqual({ items: all.filter((event) => event.type === 'conversation.tags_changed').slice(2).map(envelopeOf), has_more: false, next_cursor: '' });

    const ofSecond = await business.api.get('/events', { conversation_uuid: conversations.second });
    expect(ofSecond.body.items).toEqual(all.filter((event) => event.conversation_id === conversations.second).map(envelopeOf));
    const both = await business.api.get('/events', { conversation_uuid: conversations.first, type: 'note.created' });
    expect(both.body.items).toEqual(all.filter((event) => event.conversation_id === conversations.first && event.type === 'note.created').map(envelopeOf));

    const since = all[3]!.created_at.toISOString();
    const recent = await business.api.get('/events', { created_since: since });
    expect(recent.body.items).toEqual(all.filter((event) => event.created_at >= all[3]!.created_at).map(envelopeOf));

    // A cursor with other filters than its own is refused, whichever filter differs.
    for (const query of [{ type: 'conversation.inbox_status_changed' }, {}, { type: 'conversation.tags_changed', conversation_uuid: conversations.first }, { type: 'conversation.tags_changed', created_since: since }]) {
      const misused = await business.api.get('/events', { ...query, cursor: byType.body.next_cursor });
      expect({ query, status: misused.status, code: misused.body.code }).toEqual({ query, status: 400, code: 'INVALID_CURSOR' });
    }
    expect((await business.api.get('/events', { cursor: 'not-a-cursor' })).body.code).toBe('INVALID_CURSOR');
  });

  it('refuses unknown types and malformed filters', async () => {
    for (const query of [{ type: 'conversation.deleted' }, { conversation_uuid: 'nope' }, { created_since: 'yesterday' }, { limit: 101 }, { limit: 0 }]) {
      const response = await business.api.get('/events', query);
      expect({ query, status: response.status, code: response.body.code }).toEqual({ query, status: 400, code: 'INVALID_REQUEST' });
    }
  });

  it('answers one event by id; an unknown one, or another business’s, is 404 EVENT_NOT_FOUND and never listed', async () => {
    const one = await business.api.get(`/events/${all[3]!._id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(envelopeOf(all[3]!));

    const unknown = await business.api.get(`/events/${randomUUID()}`);
    expect([unknown.status, unknown.body.code]).toEqual([404, 'EVENT_NOT_FOUND']);
    const foreign = await business.api.get(`/events/${otherEvent._id}`);
    expect([foreign.status, foreign.body.code]).toEqual([404, 'EVENT_NOT_FOUND']);
    const foreignConversation = await business.api.get('/events', { conversation_uuid: conversations.otherBusiness });
    expect(foreignConversation.body).toEqual({ items: [], has_more: false, next_cursor: '' });
    // The other business sees its own event only.
    const theirs = await other.api.get('/events');
    expect(theirs.body.items).toEqual([envelopeOf(otherEvent)]);
    expect((await other.api.get(`/events/${otherEvent._id}`)).body).toEqual(envelopeOf(otherEvent));
  });

  it('answers the last 30 days only, whether or not the store removed older events yet', async () => {
    const old = { ...otherEvent, _id: randomUUID(), created_at: new Date(Date.now() - 31 * 24 * 60 * 60 * 1000) };
    await storedCollection('events').insertOne(old as never);
    expect((await other.api.get(`/events/${old._id}`)).body.code).toBe('EVENT_NOT_FOUND');
    expect((await other.api.get('/events')).body.items.map((item: { id: string }) => item.id)).toEqual([otherEvent._id]);
    const sinceLongAgo = await other.api.get('/events', { created_since: '2020-01-01T00:00:00Z' });
    expect(sinceLongAgo.body.items.map((item: { id: string }) => item.id)).toEqual([otherEvent._id]);
  });
});
