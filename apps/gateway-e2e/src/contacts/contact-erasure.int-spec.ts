import { randomBytes, randomUUID } from 'node:crypto';
import { generateApiToken } from '@cmsg/seed';
import {
  type TestBusiness,
  WebhookReceiver,
  contactSeed,
  createTestBusiness,
  eventually,
  fakeWamid,
  inboundMediaWebhook,
  inboundTextWebhook,
  integrationStack,
  scanStoredDocuments,
  storedCollection,
  uniquePhone,
} from '@cmsg/testing';
import { createClient } from '@redis/client';
import { disconnectStackDatabase } from '../action-groups/action-group-fixtures';
import { aiProvider, channelOf, cloudApi, deliverWebhook, inboundMessageByProviderId } from '../inbound/inbound-fixtures';

jest.setTimeout(180_000);

type EventItem = { id: string; type: string; conversation: { uuid: string } | null; sequence: number; data: Record<string, unknown> };

/** Where each planted string was found: `<collection>` or `redis:<key>`. */
interface ScanResult {
  found: Map<string, Set<string>>;
  collections: string[];
  documents: number;
  gridFsChunks: number;
  redisKeys: number;
}

/**
 * Every document of every collection of the stack's database (GridFS chunks as bytes), and every
 * Redis key with its value, searched for the strings.
 */
async function scanFor(needles: readonly string[]): Promise<ScanResult> {
  const stored = await scanStoredDocuments(needles);
  const result: ScanResult = {
    found: new Map([...stored.found].map(([needle, places]) => [needle, new Set(Object.keys(places))])),
    collections: stored.collections,
    documents: stored.documents,
    gridFsChunks: stored.gridFsChunks,
    redisKeys: 0,
  };
  const note = (where: string, text: string) => {
    for (const needle of needles) {
      if (text.includes(needle)) result.found.set(needle, new Set([...(result.found.get(needle) ?? []), where]));
    }
  };
  const redis = createClient({ url: integrationStack().env['REDIS_URL'] });
  await redis.connect();
  try {
    for await (const key of redis.scanIterator({ COUNT: 1000 })) {
      result.redisKeys += 1;
      const value = await redisValue(redis, key);
      note(`redis:${key.split(':')[0]}`, `${key} ${value}`);
    }
  } finally {
    await redis.quit();
  }
  return result;
}

/** A Redis key's value as text, whatever its type. */
async function redisValue(redis: ReturnType<typeof createClient>, key: string): Promise<string> {
  switch (await redis.type(key)) {
    case 'string':
      return (await redis.get(key)) ?? '';
    case 'hash':
      return JSON.stringify(await redis.hGetAll(key));
    case 'list':
      return JSON.stringify(await redis.lRange(key, 0, -1));
    case 'set':
      return JSON.stringify(await redis.sMembers(key));
    case 'zset':
      return JSON.stringify(await redis.zRange(key, 0, -1));
    default:
      return '';
  }
}

/** DELETE /contacts/{uuid} (CONTRACT 10.1, docs/contacts.md "Erasure"). */
describe('contact erasure', () => {
  let business: TestBusiness;
  let other: TestBusiness;
  const readToken = generateApiToken();
  const receiver = new WebhookReceiver(() => 500);
  const template = randomUUID();
  const ai = randomUUID();
  // A model of this file only, so the fake AI's reply rule is this file's.
  const MODEL = `gpt-erasure-${randomUUID().slice(0, 8)}`;
  // The customer the first test erases: AI-owned, so an AI run answers what they write.
  const customer = { phone: uniquePhone(), contact: '', conversation: randomUUID() };

  beforeAll(async () => {
    await receiver.start();
    business = await createTestBusiness((seed) => {
      seed.attribute_definitions = [{ key: 'nickname', type: 'text' }];
      // A schedule's fallback when the window is closed at firing.
      seed.ai_employees = [{ uuid: ai, name: 'Rosa', model: MODEL, wallet_tokens: 100_000 }];
      customer.contact = contactSeed(seed, { phone: customer.phone, conversation: { uuid: customer.conversation, ai_employee: ai, inbox_status: 'resolved' } }).uuid!;
      seed.templates = [{ uuid: template, name: 'see_you', language: 'es_MX', status: 'approved', category: 'utility', body: 'Hasta pronto', channel: seed.channels![0]!.public_key }];
      seed.api_tokens!.push({ uuid: randomUUID(), token: readToken, scopes: ['conversations:read'] });
    });
    other = await createTestBusiness();
    // Every event of the business is queued for a receiver that keeps failing: deliveries stay pending, bodies and all.
    expect((await business.api.post('/webhook-endpoints', { url: `${receiver.url}/hooks`, events: ['*'] })).status).toBe(201);
  });

  afterAll(async () => {
    await receiver.stop();
    await disconnectStackDatabase();
  });

  const contactEvents = async (type: string, uuid: string): Promise<EventItem[]> =>
    (await business.api.get<{ items: EventItem[] }>('/events', { type, limit: 100 })).body.items.filter((event) => (event.data['contact'] as { uuid?: string } | undefined)?.uuid === uuid);

  // Waited for in the database (a token has 60 requests a minute), then read once through the API.
  const erasedEvent = async (uuid: string) => {
    await eventually(() => storedCollection('events').countDocuments({ business_id: business.businessId, type: 'contact.erased', 'data.contact.uuid': uuid }), (count) => count > 0, 30_000);
    return contactEvents('contact.erased', uuid);
  };

  const writeAsCustomer = async (phone: string, text: string) => {
    const id = fakeWamid();
    expect((await deliverWebhook(inboundTextWebhook({ ...channelOf(business), from: phone.replace(/\D/g, ''), id, text }))).status).toBe(200);
    await eventually(() => inboundMessageByProviderId(business.businessId, id), (message) => message?.ingest?.conversation_applied === true);
  };

  it('deletes every planted personal datum within seconds: a scan of every collection, GridFS chunk and Redis key finds none', async () => {
    const suffix = randomBytes(6).toString('hex');
    const { phone } = customer;
    const planted = {
      phone: phone.replace(/\D/g, ''),
      firstName: `Erasmo${suffix}`,
      lastName: `Olvido${suffix}`,
      email: `erase.${suffix}@example.com`,
      externalId: `crm-erase-${suffix}`,
      attribute: `nick-${suffix}`,
      inbound: `inbound-text-${suffix}`,
      caption: `caption-${suffix}`,
      media: `media-bytes-${suffix}`,
      note: `note-${suffix}`,
      aiReply: `ai-reply-${suffix}`,
      groupNote: `group-note-${suffix}`,
      reply: `reply-${suffix}`,
      schedule: `schedule-${suffix}`,
    };
    // The CRM writes the customer the inbound message made: a match by phone (200).
    const created = await business.api.post(
      '/contacts',
      { phone, first_name: planted.firstName, last_name: planted.lastName, email: planted.email, external_id: planted.externalId, attributes: { nickname: planted.attribute } },
      { 'idempotency-key': `erase-${suffix}` },
    );
    expect({ status: created.status, created: created.body.created }).toEqual({ status: 200, created: false });
    const { uuid, conversation } = created.body.contact as { uuid: string; conversation: { uuid: string } };
    expect({ uuid, conversation: conversation.uuid }).toEqual({ uuid: customer.contact, conversation: customer.conversation });

    // The AI employee answers the customer (an AI run: its action group and its reply).
    await aiProvider().addRules({ match: { model: MODEL }, reply: planted.aiReply, times: 1 });
    await writeAsCustomer(phone, planted.inbound);
    await eventually(() => storedCollection('messages').findOne({ conversation_id: conversation.uuid, body: planted.aiReply }), (reply) => reply !== null, 60_000);
    const image = await cloudApi().registerMedia({ bytes: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(planted.media)]), mime_type: 'image/png' });
    const imageId = fakeWamid();
    const media = inboundMediaWebhook({ ...channelOf(business), from: planted.phone, id: imageId, media_type: 'image', media: { id: image.id, mime_type: 'image/png', caption: planted.caption } });
    expect((await deliverWebhook(media)).status).toBe(200);
    await eventually(() => inboundMessageByProviderId(business.businessId, imageId), (message) => typeof message?.media?.file_uuid === 'string');
    expect((await business.api.post('/conversation/notes', { conversation: { uuid: conversation.uuid }, note: planted.note })).status).toBe(201);
    // An action group keeps its actions' parameters.
    const group = await business.api.post('/conversation/actions', { conversation: { uuid: conversation.uuid }, actions: [{ type: 'context_note', note: planted.groupNote }] });
    expect(group.status).toBe(202);
    await eventually(() => storedCollection('action_groups').findOne({ _id: group.body.action_group.uuid }), (stored) => stored?.['status'] === 'succeeded', 60_000);
    expect((await business.api.post('/conversation/messages/text', { conversation: { uuid: conversation.uuid }, text: planted.reply })).status).toBe(201);
    const inTwoDays = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const scheduled = await business.api.post('/conversation/scheduled-message', {
      executor_kind: 'ai_employee',
      conversation: { uuid: conversation.uuid },
      schedule_at: { date: inTwoDays, time: '09:30' },
      reason: planted.schedule,
      template_uuid: template,
    });
    expect(scheduled.status).toBe(201);
    const needles = Object.values(planted);
    // The scan finds what is there: before the erasure, every planted string, in each kind of store.
    await eventually(
      () => storedCollection('webhook_deliveries').countDocuments({ business_id: business.businessId, body: { $regex: planted.reply } }),
      (count) => count > 0,
      30_000,
    );
    const before = await scanFor(needles);
    expect(needles.filter((needle) => !before.found.has(needle))).toEqual([]);
    const places = new Set([...before.found.values()].flatMap((where) => [...where]));
    for (const store of ['contacts', 'conversations', 'messages', 'timeline_events', 'scheduled_messages', 'action_groups', 'events', 'webhook_deliveries', 'file_contents.chunks', 'redis:idem']) {
      expect(places).toContain(store);
    }

    // Another business's token cannot erase it, nor can a read-only token.
    expect((await other.api.delete(`/contacts/${uuid}`)).body).toMatchObject({ code: 'CONTACT_NOT_FOUND' });
    const readOnly = await business.api.withToken(readToken).delete(`/contacts/${uuid}`);
    expect({ status: readOnly.status, code: readOnly.body.code }).toEqual({ status: 403, code: 'TOKEN_SCOPE_INSUFFICIENT' });
    expect((await business.api.get(`/contacts/${uuid}`)).status).toBe(200);

    const requestedAt = Date.now();
    const erased = await business.api.delete(`/contacts/${uuid}`);
    expect({ status: erased.status, body: erased.body }).toEqual({ status: 202, body: { contact: { uuid }, status: 'erasing' } });
    const gone = await business.api.get(`/contacts/${uuid}`);
    expect({ status: gone.status, code: gone.body.code }).toEqual({ status: 404, code: 'CONTACT_NOT_FOUND' });

    const [event, ...more] = await erasedEvent(uuid);
    const erasedAfterMs = Date.now() - requestedAt;
    expect(more).toEqual([]);
    expect(event).toMatchObject({ type: 'contact.erased', conversation: { uuid: conversation.uuid }, data: { contact: { uuid } } });
    expect(Object.keys(event!.data)).toEqual(['contact']);
    expect(erasedAfterMs).toBeLessThan(20_000);

    const after = await scanFor(needles);
    console.log(
      `[erasure] ${needles.length} strings planted (${Object.keys(planted).join(', ')}); erased ${erasedAfterMs} ms after the request; ` +
        `scanned ${after.collections.length} collections (${after.documents} documents), ${after.gridFsChunks} GridFS chunks, ${after.redisKeys} Redis keys: ` +
        `${after.found.size} found (before: ${before.found.size} found in ${[...places].sort().join(', ')})`,
    );
    expect(Object.fromEntries([...after.found].map(([needle, where]) => [needle, [...where]]))).toEqual({});
    // What stays: the erasure's ids and the event.
    expect(await storedCollection('contact_erasures').findOne({ _id: uuid })).toMatchObject({ business_id: business.businessId, conversation_id: conversation.uuid, state: 'erased' });
    expect((await business.api.post('/conversation/status', { conversation: { uuid: conversation.uuid } })).body).toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
    expect((await business.api.delete(`/contacts/${uuid}`)).body).toMatchObject({ code: 'CONTACT_NOT_FOUND' });
  });

  it('answers a repeat while the erasure runs 202 again, and makes a sender who writes later a new contact with a new uuid', async () => {
    const phone = uniquePhone();
    const created = await business.api.post('/contacts', { phone, first_name: 'Forgotten' });
    const { uuid } = created.body.contact as { uuid: string };
    const [first, repeat] = await Promise.all([business.api.delete(`/contacts/${uuid}`), business.api.delete(`/contacts/${uuid}`)]);
    expect([first.status, repeat.status]).toEqual([202, 202]);
    await erasedEvent(uuid);

    await writeAsCustomer(phone, 'hola de nuevo');
    const found = await business.api.get<{ items: { uuid: string; first_name: string | null; phone: string }[] }>('/contacts', { phone });
    expect(found.body.items).toHaveLength(1);
    expect(found.body.items[0]).toMatchObject({ first_name: null, phone });
    expect(found.body.items[0]!.uuid).not.toBe(uuid);
    expect((await business.api.get(`/contacts/${uuid}`)).status).toBe(404);
  });
});
