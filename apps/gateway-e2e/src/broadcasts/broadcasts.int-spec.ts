import { randomUUID } from 'node:crypto';
import { generateApiToken } from '@cmsg/seed';
import { BroadcastsServiceClient } from '@cmsg/proto';
import { createTestBusiness, inboundTextWebhook, minutesAgo, statusWebhook, storedCollection } from '@cmsg/testing';
import { stackGrpcClient } from '@cmsg/testing/grpc';
import { type ActionsBusiness, createActionsBusiness, disconnectStackDatabase, openConversation, phoneOf } from '../action-groups/action-group-fixtures';
import { channelOf, deliverWebhook, eventually } from '../inbound/inbound-fixtures';
import { cloudApi, lastRequestSeq, messageRequests } from '../messaging/messaging-fixtures';
import { broadcastBody, storedBroadcast, storedRecipients, waitForBroadcast } from './broadcast-fixtures';

/** Broadcasts on the real stack (CONTRACT 10.4, docs/broadcasts.md): every endpoint, state, skip reason and error code. */
describe('broadcasts', () => {
  let business: ActionsBusiness;
  const readOnly = generateApiToken();
  const marker = `Bcast${randomUUID().slice(0, 8)}`;
  const audience: string[] = [];
  let optedOut: string;
  let noName: string;
  let undeliverable: string;
  let flaky: string;
  const closedWindow = () => [{ uuid: randomUUID(), is_from_customer: true, body: 'Old', content_type: 'text', created_at: minutesAgo(48 * 60) }];

  beforeAll(async () => {
    business = await createActionsBusiness((seed) => {
      seed.api_tokens!.push({ uuid: randomUUID(), token: readOnly, scopes: ['conversations:read'] });
      seed.attribute_definitions = [{ key: 'code', type: 'text' }];
      for (let index = 0; index < 3; index += 1) {
        audience.push(openConversation(seed, { messages: closedWindow() }, { first_name: marker, last_name: `N${index}`, attributes: { code: `C${index}` } }));
      }
      optedOut = openConversation(seed, { messages: closedWindow() }, { first_name: marker, attributes: { code: 'X' }, consent: { utility: { status: 'opted_out' } } });
      noName = openConversation(seed, { messages: closedWindow() }, { first_name: marker, attributes: {} });
      undeliverable = openConversation(seed, { messages: closedWindow() }, { first_name: marker, attributes: { code: 'U' } });
      flaky = openConversation(seed, { messages: closedWindow() }, { first_name: marker, attributes: { code: 'F' } });
    }, 3);
    await cloudApi().addRules({ match: { to: phoneOf(business.seed, undeliverable) }, error: { code: 131026 } });
  });

  afterAll(() => disconnectStackDatabase());

  const api = () => business.api;
  const byMarker = { filter: { and: [{ field: 'first_name', op: 'eq', value: marker }] } };
  const codeVariable = [{ index: 1, value: '{{contact.attributes.code}}' }];
  const contactOf = async (conversation: string) => String((await storedCollection('conversations').findOne({ _id: conversation }))!['contact_id']);

  it('from a filter: freezes the audience with its skip reasons, sends each recipient once with its own variables, and completes', async () => {
    const since = await lastRequestSeq();
    const created = await api().post('/broadcasts', broadcastBody(business, { audience: { filter: byMarker.filter }, variables: codeVariable }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ uuid: expect.any(String), name: 'Order updates', status: 'preparing', pause_reason: null, template: { name: 'order_update', language: 'es_MX', category: 'utility' } });

    const done = await waitForBroadcast(created.body.uuid, (broadcast) => broadcast['status'] === 'completed');
    expect(done['counts']).toEqual({ total: 7, pending: 0, sent: 4, delivered: 0, read: 0, replied: 0, failed: 1, skipped: 2, unknown: 0 });
    const shown = await api().get(`/broadcasts/${created.body.uuid}`);
    expect(shown.body).toMatchObject({
      status: 'completed',
      counts: done['counts'],
      skipped_by_reason: { opted_out: 1, missing_variable: 1 },
      failed_by_code: { RECIPIENT_UNDELIVERABLE: 1 },
      started_at: expect.any(String),
      finished_at: expect.any(String),
      rate: { max_per_second: 80 },
    });

    // One accepted call per sent recipient, each with its own code.
    const calls = (await messageRequests(business, since)).filter((call) => call.status === 200);
    expect(calls.map((call) => (call.body as any).template.components[0].parameters[0].text).sort()).toEqual(['C0', 'C1', 'C2', 'F']);
    expect(new Set(calls.map((call) => call.to)).size).toBe(4);

    const recipients = await api().get(`/broadcasts/${created.body.uuid}/recipients`, { status: 'skipped' });
    expect(recipients.body.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ contact: expect.objectContaining({ uuid: await contactOf(optedOut) }), status: 'skipped', reason: 'opted_out', message: null }),
        expect.objectContaining({ contact: expect.objectContaining({ uuid: await contactOf(noName) }), status: 'skipped', reason: 'missing_variable', message: null }),
      ]),
    );
    const failed = await api().get(`/broadcasts/${created.body.uuid}/recipients`, { status: 'failed' });
    expect(failed.body.items).toEqual([
      expect.objectContaining({ contact: { uuid: await contactOf(undeliverable), phone: expect.any(String) }, error: { code: 'RECIPIENT_UNDELIVERABLE', message: expect.any(String), provider_code: '131026' } }),
    ]);
  });

  it('every recipient message is a normal message of its conversation; statuses and a reply move the recipient to delivered, read, replied', async () => {
    const created = await api().post('/broadcasts', broadcastBody(business, { audience: { contacts: [await contactOf(audience[0]!)] } }));
    await waitForBroadcast(created.body.uuid, (broadcast) => broadcast['status'] === 'completed');
    const [recipient] = await storedRecipients(created.body.uuid);
    const message = (await storedCollection('messages').findOne({ _id: recipient!['message_id'] }))!;
    expect(message).toMatchObject({ conversation_id: audience[0], is_from_customer: false, status: 'sent' });
    const timeline = await api().get('/conversation/timeline', { conversation_uuid: audience[0]! });
    expect(timeline.body.items.find((item: any) => item.uuid === message['_id'])).toMatchObject({ kind: 'message', direction: 'outbound', status: 'sent' });

    const to = { ...channelOf(business), recipient_id: phoneOf(business.seed, audience[0]!) };
    await deliverWebhook(statusWebhook({ ...to, message_id: message['provider_message_id'], status: 'delivered' }));
    await eventually(() => storedRecipients(created.body.uuid), ([stored]) => stored?.['status'] === 'delivered');
    await deliverWebhook(statusWebhook({ ...to, message_id: message['provider_message_id'], status: 'read' }));
    await eventually(() => storedRecipients(created.body.uuid), ([stored]) => stored?.['status'] === 'read');
    await deliverWebhook(inboundTextWebhook({ ...channelOf(business), from: phoneOf(business.seed, audience[0]!), text: 'Thanks!' }));
    await eventually(() => storedRecipients(created.body.uuid), ([stored]) => stored?.['status'] === 'replied');
    const listed = await api().get(`/broadcasts/${created.body.uuid}/recipients`);
    expect(listed.body.items).toEqual([expect.objectContaining({ status: 'replied', message: { uuid: message['_id'] }, sent_at: expect.any(String) })]);
  });

  it('retry-failed sends again only the recipients failed with a temporary provider code', async () => {
    await cloudApi().addRules({ match: { to: phoneOf(business.seed, flaky) }, error: { code: 131000 }, times: 1 });
    const contacts = [await contactOf(flaky), await contactOf(undeliverable)];
    const created = await api().post('/broadcasts', broadcastBody(business, { audience: { contacts }, variables: codeVariable }));
    const done = await waitForBroadcast(created.body.uuid, (broadcast) => broadcast['status'] === 'completed');
    expect(done['counts']).toMatchObject({ total: 2, failed: 2 });
    expect(done['failed_by_code']).toEqual({ SEND_FAILED: 1, RECIPIENT_UNDELIVERABLE: 1 });
    const since = await lastRequestSeq();
    const retried = await api().post(`/broadcasts/${created.body.uuid}/retry-failed`, {});
    expect([retried.status, retried.body.status]).toEqual([200, 'running']);
    const again = await waitForBroadcast(created.body.uuid, (broadcast) => broadcast['status'] === 'completed' && broadcast['counts'].pending === 0);
    expect(again['counts']).toMatchObject({ total: 2, sent: 1, failed: 1 });
    expect((await messageRequests(business, since)).map((call) => call.to)).toEqual([phoneOf(business.seed, flaky)]);
  });

  it('pause, resume and cancel: each 200 with the broadcast; a transition that does not apply is 409 BROADCAST_STATE_CONFLICT', async () => {
    const contacts = await Promise.all(audience.map(contactOf));
    const slow = await api().post('/broadcasts', broadcastBody(business, { audience: { contacts }, max_per_second: 1 }));
    await waitForBroadcast(slow.body.uuid, (broadcast) => broadcast['status'] === 'running');
    const paused = await api().post(`/broadcasts/${slow.body.uuid}/pause`, {});
    expect([paused.status, paused.body.status, paused.body.pause_reason]).toEqual([200, 'paused', 'manual']);
    expect((await api().post(`/broadcasts/${slow.body.uuid}/pause`, {})).body.code).toBe('BROADCAST_STATE_CONFLICT');
    // Once the sends in flight at the pause have ended, the counts are those of the recipients.
    await waitForBroadcast(slow.body.uuid, (broadcast) => broadcast['status'] === 'paused' && broadcast['due_at'] === null);
    const [whilePaused, listed] = await Promise.all([api().get(`/broadcasts/${slow.body.uuid}`), api().get(`/broadcasts/${slow.body.uuid}/recipients`)]);
    const tally = (status: string) => (listed.body.items as { status: string }[]).filter((item) => item.status === status).length;
    expect(whilePaused.body.counts).toMatchObject({ total: 3, pending: tally('pending'), sent: tally('sent') });
    expect(tally('pending') + tally('sent')).toBe(3);
    const resumed = await api().post(`/broadcasts/${slow.body.uuid}/resume`, {});
    expect([resumed.status, resumed.body.status, resumed.body.pause_reason]).toEqual([200, 'running', null]);
    const cancelled = await api().post(`/broadcasts/${slow.body.uuid}/cancel`, {});
    expect([cancelled.status, cancelled.body.status]).toEqual([200, 'cancelled']);
    const final = await waitForBroadcast(slow.body.uuid, (broadcast) => broadcast['due_at'] === null);
    const counts = final['counts'];
    expect(counts.total).toBe(3);
    expect(counts.pending + counts.sent + counts.skipped + counts.unknown).toBe(3);
    expect(final['skipped_by_reason']['cancelled']).toBeGreaterThanOrEqual(1);
    for (const transition of ['pause', 'resume', 'cancel', 'retry-failed']) {
      const refused = await api().post(`/broadcasts/${slow.body.uuid}/${transition}`, {});
      expect([transition, refused.status, refused.body.code]).toEqual([transition, 409, 'BROADCAST_STATE_CONFLICT']);
    }
  });

  it('send_at later: scheduled until then; cancelled before it starts, it sends nothing', async () => {
    const since = await lastRequestSeq();
    const sendAt = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await api().post('/broadcasts', broadcastBody(business, { audience: byMarker, send_at: sendAt, send_window: { from: '09:00', to: '18:00' } }));
    expect([scheduled.status, scheduled.body.status, scheduled.body.send_at]).toEqual([201, 'scheduled', sendAt]);
    expect(scheduled.body.send_window).toEqual({ from: '09:00', to: '18:00' });
    const cancelled = await business.clients[0]!.post(`/broadcasts/${scheduled.body.uuid}/cancel`, {});
    expect([cancelled.status, cancelled.body.status, cancelled.body.counts.total]).toEqual([200, 'cancelled', 0]);
    expect(await storedRecipients(scheduled.body.uuid)).toEqual([]);
    expect(await messageRequests(business, since)).toEqual([]);
  });

  it('a create retried after its answer was lost (the same operation reaching the service again) answers the one broadcast it made', async () => {
    const client = stackGrpcClient(BroadcastsServiceClient, 'conversations', { deadlineMs: 10_000 });
    try {
      const create = (name: string, operationId: string) =>
        client.rpc.createBroadcast({
          caller: { business_id: business.businessId, token_uuid: '' },
          name,
          channel: business.seed.channels![0]!.public_key,
          template: { name: 'order_update', language: 'es_MX' },
          variables: [{ index: 1, value: 'x' }],
          header: undefined,
          button_parameters: [],
          audience: { filter: byMarker.filter },
          send_at: new Date(Date.now() + 3_600_000).toISOString(),
          send_window: undefined,
          operation_id: operationId,
        });
      const operation = `broadcast:${randomUUID()}`;
      const [first, retried] = await Promise.all([create('Lost answer', operation), create('Lost answer', operation)]);
      const later = await create('Lost answer, retried later', operation);
      expect(retried.uuid).toBe(first.uuid);
      expect(later).toMatchObject({ uuid: first.uuid, name: 'Lost answer' });
      expect(await storedCollection('broadcasts').countDocuments({ business_id: business.businessId, name: { $regex: '^Lost answer' } })).toBe(1);
      const another = await create('Lost answer', `broadcast:${randomUUID()}`);
      expect(another.uuid).not.toBe(first.uuid);
      for (const uuid of [first.uuid, another.uuid]) expect((await api().post(`/broadcasts/${uuid}/cancel`, {})).status).toBe(200);
    } finally {
      client.close();
    }
  });

  it('preview counts the audience as it would be frozen, sends nothing', async () => {
    const since = await lastRequestSeq();
    const preview = await business.api.withToken(readOnly).post('/broadcasts/preview', broadcastBody(business, { audience: byMarker, variables: codeVariable, max_per_second: 2 }));
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({ total: 7, skipped_by_reason: { opted_out: 1, missing_variable: 1 }, messaging_limit_remaining: null, estimated_seconds: 3 });
    expect(await messageRequests(business, since)).toEqual([]);
  });

  it('lists newest first with a status filter and cursor; reads and writes need their scopes', async () => {
    const client = business.clients[1]!;
    const page = await client.get('/broadcasts', { limit: '2' });
    expect(page.status).toBe(200);
    expect(page.body.items).toHaveLength(2);
    expect(page.body.has_more).toBe(true);
    const next = await client.get('/broadcasts', { limit: '2', cursor: page.body.next_cursor });
    expect(next.body.items.map((item: any) => item.uuid)).not.toContain(page.body.items[0].uuid);
    const completed = await client.get('/broadcasts', { status: 'completed' });
    expect(completed.body.items.every((item: any) => item.status === 'completed')).toBe(true);
    expect((await client.get('/broadcasts', { status: 'sending' })).status).toBe(400);

    const reader = business.api.withToken(readOnly);
    expect((await reader.get('/broadcasts')).status).toBe(200);
    const refused = await reader.post('/broadcasts', broadcastBody(business, { audience: byMarker }));
    expect([refused.status, refused.body.code]).toEqual([403, 'TOKEN_SCOPE_INSUFFICIENT']);
  });

  it('refuses what it cannot send: unknown channel, template, unapproved template, bad placeholders, windows and audiences', async () => {
    const client = business.clients[2]!;
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ channel: 'no-such-channel', audience: byMarker }, 404, 'CHANNEL_NOT_FOUND'],
      [{ template: { name: 'no_such_template', language: 'es_MX' }, audience: byMarker }, 404, 'TEMPLATE_NOT_FOUND'],
      [{ template: { name: 'promo_pending', language: 'es_MX' }, audience: byMarker }, 422, 'TEMPLATE_NOT_APPROVED'],
      [{ variables: [{ index: 1, value: '{{contact.nickname}}' }], audience: byMarker }, 400, 'INVALID_REQUEST'],
      [{ variables: [{ index: 1, value: '{{row.code}}' }], audience: byMarker }, 400, 'INVALID_REQUEST'],
      [{ send_window: { from: '25:00', to: '18:00' }, audience: byMarker }, 400, 'INVALID_REQUEST'],
      [{ audience: { contacts: [] } }, 400, 'INVALID_REQUEST'],
      [{ audience: { filter: { and: [{ field: 'shoe_size', op: 'eq', value: 1 }] } } }, 400, 'INVALID_REQUEST'],
      [{ audience: byMarker, max_per_second: 0 }, 400, 'INVALID_REQUEST'],
    ];
    for (const [body, status, code] of cases) {
      const response = await client.post('/broadcasts', broadcastBody(business, body));
      expect([JSON.stringify(body), response.status, response.body.code]).toEqual([JSON.stringify(body), status, code]);
    }
    expect((await client.get(`/broadcasts/${randomUUID()}`)).body.code).toBe('BROADCAST_NOT_FOUND');
    expect((await client.post(`/broadcasts/${randomUUID()}/pause`, {})).body.code).toBe('BROADCAST_NOT_FOUND');
  });

  it("another business's broadcast is 404 everywhere", async () => {
    const other = await createTestBusiness();
    const mine = (await api().get('/broadcasts', { limit: '1', status: 'completed' })).body.items[0].uuid as string;
    expect((await other.api.get(`/broadcasts/${mine}`)).body.code).toBe('BROADCAST_NOT_FOUND');
    expect((await other.api.get(`/broadcasts/${mine}/recipients`)).body.code).toBe('BROADCAST_NOT_FOUND');
    expect((await other.api.post(`/broadcasts/${mine}/cancel`, {})).body.code).toBe('BROADCAST_NOT_FOUND');
    expect((await other.api.get('/broadcasts')).body.items).toEqual([]);
    expect((await storedBroadcast(mine))!['status']).toBe('completed');
  });

  it('broadcast.started and broadcast.completed are recorded with conversation null', async () => {
    const events = await storedCollection('events').find({ business_id: business.businessId, type: { $in: ['broadcast.started', 'broadcast.completed'] } }).toArray();
    expect(events.length).toBeGreaterThanOrEqual(2);
    const completed = events.find((event) => event['type'] === 'broadcast.completed')!;
    expect(completed['conversation_id']).toBeNull();
    expect(completed['data']).toMatchObject({ broadcast: { uuid: expect.any(String), name: 'Order updates' }, counts: { total: expect.any(Number) }, reason: null });
  });
});
