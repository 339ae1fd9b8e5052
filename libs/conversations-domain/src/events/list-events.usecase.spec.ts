import { businessScope } from '@cmsg/dal';
import { ListCursorCodec } from '../listing/list-cursor';
import { InMemoryEvents, eventRow } from '../testing/in-memory-events';
import { type ListEventsRequest, listEvents } from './list-events.usecase';

const NOW = new Date('2026-11-29T12:00:00.000Z');
const DAY_MS = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY_MS);

describe('listEvents', () => {
  let events: InMemoryEvents;
  const codec = new ListCursorCodec('a-test-secret-of-enough-length', () => NOW.getTime());
  const list = (request: Partial<ListEventsRequest>, businessId = 'b1') => listEvents({ events, clock: () => NOW }, businessScope(businessId), codec, { limit: 50, ...request });
  const ids = async (request: Partial<ListEventsRequest>, businessId = 'b1') => (await list(request, businessId)).items.map((event) => event.id);

  beforeEach(() => {
    events = new InMemoryEvents();
    events.rows.push(
      eventRow({ _id: 'e-expired', business_id: 'b1', created_at: daysAgo(31) }),
      eventRow({ _id: 'e3', business_id: 'b1', created_at: daysAgo(1), type: 'message.sent', conversation_id: 'conv-2' }),
      eventRow({ _id: 'e1', business_id: 'b1', created_at: daysAgo(10), type: 'message.received', conversation_id: 'conv-1' }),
      // Same instant as e1: the id breaks the tie.
      eventRow({ _id: 'e2', business_id: 'b1', created_at: daysAgo(10), type: 'message.sent', conversation_id: 'conv-1' }),
      eventRow({ _id: 'x1', business_id: 'b2', created_at: daysAgo(2), type: 'message.sent', conversation_id: 'conv-1' }),
    );
  });

  it("answers the business's events of the last 30 days, oldest first, and no cursor on the last page", async () => {
    const page = await list({});
    expect(page.items.map((event) => event.id)).toEqual(['e1', 'e2', 'e3']);
    expect(page).toMatchObject({ has_more: false, next_cursor: '' });
  });

  it('pages with a cursor that continues after the last event answered, ties broken by id', async () => {
    const first = await list({ limit: 1 });
    expect(first.items.map((event) => event.id)).toEqual(['e1']);
    expect(first.has_more).toBe(true);
    const second = await list({ limit: 1, cursor: first.next_cursor });
    expect(second.items.map((event) => event.id)).toEqual(['e2']);
    const third = await list({ limit: 1, cursor: second.next_cursor });
    expect(third).toMatchObject({ has_more: false, next_cursor: '' });
    expect(third.items.map((event) => event.id)).toEqual(['e3']);
  });

  it('filters by type and by conversation', async () => {
    expect(await ids({ type: 'message.sent' })).toEqual(['e2', 'e3']);
    expect(await ids({ conversationUuid: 'conv-1' })).toEqual(['e1', 'e2']);
    expect(await ids({ type: 'message.sent', conversationUuid: 'conv-1' })).toEqual(['e2']);
  });

  it('starts at created_since, never earlier than 30 days back', async () => {
    expect(await ids({ createdSince: daysAgo(5).toISOString() })).toEqual(['e3']);
    expect(await ids({ createdSince: daysAgo(60).toISOString() })).toEqual(['e1', 'e2', 'e3']);
  });

  it("never answers another business's events", async () => {
    expect(await ids({}, 'b2')).toEqual(['x1']);
    expect(await ids({ conversationUuid: 'conv-1' }, 'b2')).toEqual(['x1']);
    expect(await ids({}, 'b3')).toEqual([]);
  });

  it('refuses a created_since that is not a date with INVALID_REQUEST', async () => {
    await expect(list({ createdSince: 'yesterday' })).rejects.toMatchObject({ code: 'INVALID_REQUEST', message: 'created_since: an ISO 8601 date-time is required.' });
  });

  it('refuses a cursor used with other filters, or made for another list, with INVALID_CURSOR', async () => {
    const { next_cursor } = await list({ limit: 1, type: 'message.sent' });
    await expect(list({ limit: 1, cursor: next_cursor, type: 'message.received' })).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
    await expect(list({ limit: 1, cursor: next_cursor })).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
    const foreign = codec.encode('conversations', 'asc', { sortAt: daysAgo(3).getTime(), id: 'c1' });
    await expect(list({ cursor: foreign })).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
  });
});
