import { businessScope } from '@cmsg/dal';
import { InMemoryEvents, eventRow } from '../testing/in-memory-events';
import { getEvent } from './get-event.usecase';

const NOW = new Date('2026-11-29T12:00:00.000Z');
const DAY_MS = 24 * 60 * 60 * 1000;

describe('getEvent', () => {
  let events: InMemoryEvents;
  const ports = () => ({ events, clock: () => NOW });
  beforeEach(() => {
    events = new InMemoryEvents();
    events.rows.push(
      eventRow({ _id: 'e1', business_id: 'b1', created_at: new Date(NOW.getTime() - DAY_MS), conversation_id: 'conv-1', sequence: 7, type: 'conversation.tags_changed', data: { added: ['vip'] } }),
      eventRow({ _id: 'e-old', business_id: 'b1', created_at: new Date(NOW.getTime() - 30 * DAY_MS - 1) }),
      eventRow({ _id: 'e-edge', business_id: 'b1', created_at: new Date(NOW.getTime() - 30 * DAY_MS) }),
      eventRow({ _id: 'e2', business_id: 'b2', created_at: NOW }),
    );
  });

  it('answers the event as the service carries it (data as JSON, no conversation as undefined)', async () => {
    expect(await getEvent(ports(), businessScope('b1'), 'e1')).toEqual({
      id: 'e1',
      type: 'conversation.tags_changed',
      created_at: '2026-11-28T12:00:00.000Z',
      business_slug: 'acme',
      conversation_uuid: 'conv-1',
      sequence: 7,
      data_json: '{"added":["vip"]}',
    });
    expect((await getEvent(ports(), businessScope('b1'), 'e-edge')).conversation_uuid).toBeUndefined();
  });

  it.each([
    ['an unknown id', 'b1', 'e-missing'],
    ['an event older than 30 days (the TTL index may not have removed it yet)', 'b1', 'e-old'],
    ["another business's event", 'b1', 'e2'],
    ["another business's event, the other way", 'b2', 'e1'],
  ])('answers EVENT_NOT_FOUND for %s', async (_case, businessId, id) => {
    await expect(getEvent(ports(), businessScope(businessId), id)).rejects.toMatchObject({
      code: 'EVENT_NOT_FOUND',
      message: `No event ${id} in this business in the last 30 days.`,
    });
  });
});
