import { WebhookReceiver, eventually, seedStackDatabase, storedCollection } from '@cmsg/testing';
import { type SchedulingBusiness, createSchedulingBusiness, humanSchedule, openConversation } from '../scheduled-messages/scheduling-fixtures';

jest.setTimeout(120_000);

/** One event of each process that fans out: the conversations service, the actions-runner, the scheduler. */
const RECORDED_BY = {
  'note.created': 'conversations',
  'action_group.finished': 'actions-runner',
  'scheduled_message.cancelled': 'scheduler',
} as const;
type Kind = keyof typeof RECORDED_BY;
const KINDS = Object.keys(RECORDED_BY) as Kind[];

interface StoredEventRow {
  _id: string;
  type: string;
}

/**
 * Every process keeps each business's webhook endpoint list in memory (docs/webhooks.md, Endpoint
 * list cache). Each change of the list through the public API (create, PATCH events, disable,
 * enable, DELETE) and a seed load is followed at once by events recorded in each of the three
 * processes that fan out, after every one of them has cached the list as it was before: each event
 * goes to exactly the endpoints the changed list subscribes to it.
 */
describe('webhook endpoint list cache: the fan-out follows every change at once, in every process', () => {
  let business: SchedulingBusiness;
  let conversation: string;
  const receiver = new WebhookReceiver();
  /** Subscribed to everything all along: the sign that an event's fan-out is done. */
  let control: string;
  let recordedSince = new Date();

  beforeAll(async () => {
    await receiver.start();
    business = await createSchedulingBusiness((seed) => {
      conversation = openConversation(seed);
    }, { tokens: 4 });
    control = (await business.nextClient().post('/webhook-endpoints', { url: `${receiver.url}/control`, events: ['*'] })).body.uuid;
  });

  afterAll(async () => {
    await receiver.stop();
  });

  /** Records one event in each process at once (the REST note also brings the context note's, both by the conversations service). */
  async function recordOneOfEach(): Promise<Map<Kind, string[]>> {
    recordedSince = new Date();
    const note = business.nextClient().post('/conversation/notes', { conversation: { uuid: conversation }, note: 'cache check' });
    const group = business.nextClient().post('/conversation/actions', { conversation: { uuid: conversation }, actions: [{ type: 'context_note', note: 'cache check' }] });
    const schedule = await business.nextClient().post('/conversation/scheduled-message', humanSchedule(conversation, 'America/Mexico_City', business.catalog));
    expect(schedule.status).toBe(201);
    expect((await business.nextClient().delete(`/scheduled-messages/${schedule.body.data.uuid}`)).status).toBe(200);
    expect((await note).status).toBe(201);
    expect((await group).status).toBe(202);
    return eventually(
      async () => {
        const events = (await storedCollection('events')
          .find({ business_id: business.businessId, created_at: { $gte: recordedSince } })
          .toArray()) as unknown as StoredEventRow[];
        return new Map(KINDS.map((kind) => [kind, events.filter((event) => event.type === kind).map((event) => event._id)]));
      },
      (byKind) => byKind.get('note.created')!.length === 2 && byKind.get('action_group.finished')!.length === 1 && byKind.get('scheduled_message.cancelled')!.length === 1,
      30_000,
    );
  }

  /** For each kind of event just recorded: the endpoints among `watched` it was queued for, once its fan-out is done. */
  async function queuedFor(watched: readonly string[]): Promise<Record<Kind, string[]>> {
    const events = await recordOneOfEach();
    const result = {} as Record<Kind, string[]>;
    for (const kind of KINDS) {
      const ids = events.get(kind)!;
      const deliveries = await eventually(
        () => storedCollection('webhook_deliveries').find({ event_id: { $in: ids } }).toArray(),
        (found) => ids.every((id) => found.some((delivery) => delivery['event_id'] === id && delivery['endpoint_id'] === control)),
        30_000,
      );
      const endpointsOf = ids.map((id) => deliveries.filter((delivery) => delivery['event_id'] === id && watched.includes(delivery['endpoint_id'])).map((delivery) => delivery['endpoint_id'] as string));
      // Both notes of a step went to the same endpoints.
      expect(endpointsOf.every((endpoints) => JSON.stringify(endpoints.sort()) === JSON.stringify(endpointsOf[0]!.sort()))).toBe(true);
      result[kind] = endpointsOf[0]!;
    }
    return result;
  }

  const onlyTo = (endpoint: string, kinds: readonly Kind[]) => Object.fromEntries(KINDS.map((kind) => [kind, kinds.includes(kind) ? [endpoint] : []]));

  it('creates, narrows, disables, enables, widens and deletes an endpoint, then seeds one: each event follows the change answered before it', async () => {
    // Every process caches the list as it is (the control endpoint alone) before the first change.
    await queuedFor([]);

    const created = await business.nextClient().post('/webhook-endpoints', { url: `${receiver.url}/changing`, events: KINDS });
    expect(created.status).toBe(201);
    const endpoint = created.body.uuid as string;
    expect(await queuedFor([endpoint])).toEqual(onlyTo(endpoint, KINDS));

    const narrowed = await business.nextClient().patch(`/webhook-endpoints/${endpoint}`, { events: ['action_group.finished', 'scheduled_message.cancelled'] });
    expect(narrowed.status).toBe(200);
    expect(await queuedFor([endpoint])).toEqual(onlyTo(endpoint, ['action_group.finished', 'scheduled_message.cancelled']));

    expect((await business.nextClient().patch(`/webhook-endpoints/${endpoint}`, { enabled: false })).status).toBe(200);
    expect(await queuedFor([endpoint])).toEqual(onlyTo(endpoint, []));

    expect((await business.nextClient().patch(`/webhook-endpoints/${endpoint}`, { enabled: true, events: ['note.created'] })).status).toBe(200);
    expect(await queuedFor([endpoint])).toEqual(onlyTo(endpoint, ['note.created']));

    expect((await business.nextClient().patch(`/webhook-endpoints/${endpoint}`, { events: ['*'] })).status).toBe(200);
    expect(await queuedFor([endpoint])).toEqual(onlyTo(endpoint, KINDS));

    expect((await business.nextClient().delete(`/webhook-endpoints/${endpoint}`)).status).toBe(200);
    expect(await queuedFor([endpoint])).toEqual(onlyTo(endpoint, []));

    // A seed load (as `npm run admin -- seed` makes one) adds an endpoint to the running services.
    const seededUrl = `${receiver.url}/seeded`;
    await seedStackDatabase({ businesses: [{ ...business.seed, webhooks: [{ url: seededUrl, secret: 'a-seeded-secret-of-some-length', events: ['*'] }] }] });
    const seeded = (await storedCollection('webhook_endpoints').findOne({ business_id: business.businessId, url: seededUrl }))!['_id'] as string;
    expect(await queuedFor([seeded])).toEqual(onlyTo(seeded, KINDS));
  });
});
