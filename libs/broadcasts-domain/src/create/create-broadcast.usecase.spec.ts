import { businessScope } from '@cmsg/dal';
import { BUSINESS, OTHER_BUSINESS, aContact, aDefinition, aDefinitionWorld } from '../testing/broadcast-builders';
import { type BroadcastData, inMemoryBroadcastStore } from '../testing/in-memory-broadcast-store';
import { type StoredAudienceFile, inMemoryAudience, inMemoryDefinitions, testClock } from '../testing/in-memory-broadcast-ports';
import { type CreateBroadcastPorts, createBroadcast } from './create-broadcast.usecase';
import type { BroadcastDefinitionInput } from './broadcast-definition';

const scope = businessScope(BUSINESS);
const csv = 'Phone,plan,code\n+5215512345678,gold,X1\n';

function files(): StoredAudienceFile[] {
  const audienceFile = { business_id: BUSINESS, module: 'broadcast_audiences', status: 'confirmed', mime_type: 'text/csv', content: csv };
  return [
    { ...audienceFile, id: 'f-csv' },
    { ...audienceFile, id: 'f-ndjson', mime_type: 'application/x-ndjson', content: '{"phone":"+5215512345678"}\n' },
    { ...audienceFile, id: 'f-no-phone', content: 'name,plan\nAna,gold\n' },
    { ...audienceFile, id: 'f-pending', status: 'pending' },
    { ...audienceFile, id: 'f-media', module: 'messages' },
    { ...audienceFile, id: 'f-pdf', mime_type: 'application/pdf' },
    { ...audienceFile, id: 'f-theirs', business_id: OTHER_BUSINESS },
  ];
}

describe('createBroadcast', () => {
  let data: BroadcastData;
  let ports: CreateBroadcastPorts;
  const clock = testClock();

  beforeEach(() => {
    data = { broadcasts: [], recipients: [] };
    clock.at = new Date('2026-03-02T12:00:00Z');
    ports = {
      store: inMemoryBroadcastStore(data),
      definitions: inMemoryDefinitions(aDefinitionWorld()),
      audience: inMemoryAudience([aContact('c1')], files()),
      clock,
      newId: () => 'bc-new',
    };
  });

  const rejected = async (input: BroadcastDefinitionInput, code: string, message?: RegExp) => {
    const error = await createBroadcast(ports, scope, input).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code });
    if (message) expect((error as Error).message).toMatch(message);
    expect(data.broadcasts).toEqual([]);
  };

  it('stores a broadcast without send_at as preparing, due now, with the template, the channel, the time zone and empty counts', async () => {
    const broadcast = await createBroadcast(ports, scope, aDefinition({ max_per_second: 20, send_window: { from: '09:00', to: '20:00' } }));
    expect(broadcast).toMatchObject({
      _id: 'bc-new',
      business_id: BUSINESS,
      name: 'Spring sale',
      channel_id: 'ch1',
      template: { uuid: 'tpl-promo', name: 'promo', language: 'en', category: 'marketing' },
      variables: [{ index: 1, value: '{{contact.first_name|there}}' }],
      audience: { kind: 'filter', filter: {} },
      status: 'preparing',
      pause_reason: null,
      send_at: clock.at,
      due_at: clock.at,
      created_at: clock.at,
      send_window: { from: '09:00', to: '20:00' },
      time_zone: 'America/Mexico_City',
      max_per_second: 20,
      freeze: { after_contact_id: null, rows: 0, offset: 0, next_seq: 0 },
      dispatch_epoch: 0,
      counts: { total: 0, pending: 0, sent: 0, delivered: 0, read: 0, replied: 0, failed: 0, skipped: 0, unknown: 0 },
    });
    expect(data.broadcasts).toEqual([broadcast]);
    expect(data.recipients).toEqual([]);
  });

  describe('one broadcast per create operation (an Idempotency-Key retried)', () => {
    it('names the broadcast by the business and the operation, and answers it again for the same operation', async () => {
      const first = await createBroadcast(ports, scope, aDefinition(), 'op-1');
      expect(first._id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      clock.at = new Date('2026-03-02T12:05:00Z');
      const again = await createBroadcast(ports, scope, aDefinition({ name: 'Changed meanwhile' }), 'op-1');
      expect(again).toEqual(first);
      expect(data.broadcasts).toHaveLength(1);
    });

    it('answers the broadcast it created even when the definition would no longer be valid', async () => {
      const first = await createBroadcast(ports, scope, aDefinition(), 'op-2');
      const world = aDefinitionWorld();
      world.templates = world.templates.map((template) => ({ ...template, status: 'paused' }));
      ports.definitions = inMemoryDefinitions(world);
      await expect(createBroadcast(ports, scope, aDefinition(), 'op-2')).resolves.toEqual(first);
    });

    it('creates another broadcast for another operation or business, and a random one without an operation', async () => {
      const first = await createBroadcast(ports, scope, aDefinition(), 'op-3');
      const other = await createBroadcast(ports, scope, aDefinition(), 'op-4');
      expect(other._id).not.toBe(first._id);
      const elsewhere = await createBroadcast(ports, businessScope(OTHER_BUSINESS), aDefinition(), 'op-3').catch((error: unknown) => error);
      expect(elsewhere).toMatchObject({ code: 'CHANNEL_NOT_FOUND' });
      expect((await createBroadcast(ports, scope, aDefinition()))._id).toBe('bc-new');
    });

    it('answers the broadcast a concurrent run of the same operation stored first', async () => {
      const store = ports.store.broadcasts;
      let stored: Awaited<ReturnType<typeof createBroadcast>> | undefined;
      ports.store = {
        broadcasts: {
          ...store,
          // The other run inserts between this run's lookup and its insert.
          insertIfAbsent: async (broadcast) => {
            stored = { ...broadcast, name: 'the other run' };
            await store.insertIfAbsent(stored);
            return store.insertIfAbsent(broadcast);
          },
        },
      };
      const answered = await createBroadcast(ports, scope, aDefinition(), 'op-5');
      expect(answered).toEqual(stored);
      expect(data.broadcasts).toHaveLength(1);
    });
  });

  it('stores a broadcast with a later send_at as scheduled, due at send_at', async () => {
    const broadcast = await createBroadcast(ports, scope, aDefinition({ send_at: '2026-03-05T09:30:00-06:00' }));
    expect(broadcast).toMatchObject({ status: 'scheduled', send_at: new Date('2026-03-05T15:30:00Z'), due_at: new Date('2026-03-05T15:30:00Z'), max_per_second: null, send_window: null });
  });

  it('starts a broadcast whose send_at is past now, as preparing', async () => {
    const broadcast = await createBroadcast(ports, scope, aDefinition({ send_at: '2026-03-01T00:00:00Z' }));
    expect(broadcast).toMatchObject({ status: 'preparing', send_at: clock.at, due_at: clock.at });
  });

  it('finds the template by uuid too, and keeps a contact-list audience', async () => {
    const broadcast = await createBroadcast(ports, scope, aDefinition({ template: { uuid: 'tpl-notice' }, audience: { kind: 'contacts', contact_ids: ['c1', 'c2'] } }));
    expect(broadcast).toMatchObject({ template: { uuid: 'tpl-notice', category: 'utility' }, audience: { kind: 'contacts', contact_ids: ['c1', 'c2'] } });
  });

  it('answers CHANNEL_NOT_FOUND for an unknown channel and for a channel of another business', async () => {
    await rejected(aDefinition({ channel: 'nope' }), 'CHANNEL_NOT_FOUND');
    await rejected(aDefinition({ channel: 'theirs' }), 'CHANNEL_NOT_FOUND');
  });

  it("answers TEMPLATE_NOT_FOUND for an unknown template and for another channel's", async () => {
    await rejected(aDefinition({ template: { name: 'promo', language: 'es' } }), 'TEMPLATE_NOT_FOUND');
    await rejected(aDefinition({ template: { uuid: 'tpl-theirs' } }), 'TEMPLATE_NOT_FOUND');
  });

  it('answers TEMPLATE_NOT_APPROVED for a template that is not approved', async () => {
    await rejected(aDefinition({ template: { uuid: 'tpl-draft' } }), 'TEMPLATE_NOT_APPROVED', /pending, not approved/);
  });

  it('answers INVALID_REQUEST for a placeholder it cannot read', async () => {
    await rejected(aDefinition({ variables: [{ index: 1, value: 'Hi {{contact.first_name' }] }), 'INVALID_REQUEST', /variables\[0\]/);
    await rejected(aDefinition({ variables: [{ index: 1, value: 'Hi {{contact.nickname}}' }] }), 'INVALID_REQUEST');
    await rejected(aDefinition({ variables: [{ index: 1, value: 'Hi }}' }] }), 'INVALID_REQUEST');
  });

  it('answers INVALID_REQUEST for {{row.*}} placeholders without a file audience', async () => {
    await rejected(aDefinition({ variables: [{ index: 1, value: '{{row.plan}}' }] }), 'INVALID_REQUEST', /file audience/);
    await rejected(aDefinition({ variables: [{ index: 1, value: '{{row.plan}}' }], audience: { kind: 'contacts', contact_ids: ['c1'] } }), 'INVALID_REQUEST', /file audience/);
  });

  it('answers INVALID_REQUEST for a bad send_window', async () => {
    await rejected(aDefinition({ send_window: { from: '9:00', to: '20:00' } }), 'INVALID_REQUEST', /send_window.from/);
    await rejected(aDefinition({ send_window: { from: '09:00', to: '24:00' } }), 'INVALID_REQUEST', /send_window.to/);
    await rejected(aDefinition({ send_window: { from: '09:00', to: '09:00' } }), 'INVALID_REQUEST', /differ/);
  });

  it('answers INVALID_REQUEST for max_per_second outside 1..1000, and accepts both ends', async () => {
    await rejected(aDefinition({ max_per_second: 0 }), 'INVALID_REQUEST', /max_per_second/);
    await rejected(aDefinition({ max_per_second: 1001 }), 'INVALID_REQUEST', /max_per_second/);
    await expect(createBroadcast({ ...ports, newId: () => 'low' }, scope, aDefinition({ max_per_second: 1 }))).resolves.toMatchObject({ max_per_second: 1 });
    await expect(createBroadcast({ ...ports, newId: () => 'high' }, scope, aDefinition({ max_per_second: 1000 }))).resolves.toMatchObject({ max_per_second: 1000 });
  });

  it('answers INVALID_REQUEST for a contact list of none or more than 1,000', async () => {
    await rejected(aDefinition({ audience: { kind: 'contacts', contact_ids: [] } }), 'INVALID_REQUEST', /1 to 1000/);
    const many = Array.from({ length: 1001 }, (_, index) => `c${index}`);
    await rejected(aDefinition({ audience: { kind: 'contacts', contact_ids: many } }), 'INVALID_REQUEST', /1 to 1000/);
    await expect(createBroadcast(ports, scope, aDefinition({ audience: { kind: 'contacts', contact_ids: many.slice(0, 1000) } }))).resolves.toMatchObject({ status: 'preparing' });
  });

  it('answers INVALID_REQUEST for a filter the audience refuses', async () => {
    await rejected(aDefinition({ audience: { kind: 'filter', filter: ['plan'] } }), 'INVALID_REQUEST', /filter/);
  });

  it('stores a CSV file audience with its header, and {{row.*}} placeholders of its columns (the phone under any name)', async () => {
    const variables = [{ index: 1, value: '{{row.plan}} {{row.code}} {{row.phone}} {{row.Phone}}' }];
    const broadcast = await createBroadcast(ports, scope, aDefinition({ variables, audience: { kind: 'file', file_uuid: 'f-csv' } }));
    expect(broadcast.audience).toEqual({ kind: 'file', file_id: 'f-csv', format: 'csv', header: { columns: ['Phone', 'plan', 'code'], end_offset: csv.indexOf('\n') + 1 } });
  });

  it('stores an NDJSON file audience, whose rows name their own keys', async () => {
    const broadcast = await createBroadcast(ports, scope, aDefinition({ variables: [{ index: 1, value: '{{row.anything}}' }], audience: { kind: 'file', file_uuid: 'f-ndjson' } }));
    expect(broadcast.audience).toEqual({ kind: 'file', file_id: 'f-ndjson', format: 'ndjson' });
  });

  it('answers INVALID_REQUEST for a {{row.*}} column the CSV header does not have, and a CSV without a phone column', async () => {
    await rejected(aDefinition({ variables: [{ index: 1, value: '{{row.city}}' }], audience: { kind: 'file', file_uuid: 'f-csv' } }), 'INVALID_REQUEST', /"city".*Phone, plan, code/);
    await rejected(aDefinition({ audience: { kind: 'file', file_uuid: 'f-no-phone' } }), 'INVALID_REQUEST', /phone/);
  });

  it.each([
    ['an unknown file', 'nope'],
    ["another business's file", 'f-theirs'],
    ['a file not confirmed', 'f-pending'],
    ['a file of another module', 'f-media'],
    ['a file of another type', 'f-pdf'],
  ])('answers FILE_NOT_FOUND for %s', async (_case, fileUuid) => {
    await rejected(aDefinition({ audience: { kind: 'file', file_uuid: fileUuid } }), 'FILE_NOT_FOUND');
  });

  it('answers INVALID_REQUEST for a send_at that is not a date-time', async () => {
    await rejected(aDefinition({ send_at: 'tomorrow' }), 'INVALID_REQUEST', /send_at/);
  });

  it('checks the channel before the template, and the template before the variables', async () => {
    await rejected(aDefinition({ channel: 'nope', template: { uuid: 'tpl-draft' }, variables: [{ index: 1, value: '{{' }] }), 'CHANNEL_NOT_FOUND');
    await rejected(aDefinition({ template: { uuid: 'tpl-draft' }, variables: [{ index: 1, value: '{{' }] }), 'TEMPLATE_NOT_APPROVED');
  });
});
