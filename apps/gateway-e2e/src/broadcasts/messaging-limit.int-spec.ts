import { randomUUID } from 'node:crypto';
import { createLogger } from '@cmsg/platform';
import { createRedisClient, closeRedisClient, type RedisClient } from '@cmsg/platform/redis';
import { MessagingLimitLedger } from '@cmsg/send-engine';
import { eventually, storedCollection } from '@cmsg/testing';
import { type ActionsBusiness, closedConversation, createActionsBusiness, disconnectStackDatabase, openConversation } from '../action-groups/action-group-fixtures';
import { lastRequestSeq, messageRequests } from '../messaging/messaging-fixtures';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:16379';

/**
 * The channel's messaging limit (CONTRACT 10.5): unique contacts reached by templates in a moving
 * 24 h. The limit is filled through the engine's own ledger (the stack's Redis) with contacts of
 * no conversation, as 250 earlier sends would have left it, and freed the same way.
 */
describe('messaging limit', () => {
  let business: ActionsBusiness;
  let redis: RedisClient;
  let channelId: string;
  const closed: string[] = [];
  let open: string;
  const ledger = () => new MessagingLimitLedger(redis);
  /** Units the test took: freed after each test whatever happened, so the next starts from an empty ledger. */
  let taken: Array<{ contactKey: string; token: string }> = [];

  beforeAll(async () => {
    redis = createRedisClient(REDIS_URL, createLogger('test', 'silent'));
    await redis.connect();
    business = await createActionsBusiness((seed) => {
      for (let index = 0; index < 4; index += 1) closed.push(closedConversation(seed, {}));
      open = openConversation(seed);
    });
    const channelKey = business.seed.channels![0]!.public_key;
    expect((await business.api.patch(`/channels/${channelKey}`, { messaging_limit: 250 })).status).toBe(200);
    channelId = String((await storedCollection('channels').findOne({ public_key: channelKey, business_id: business.businessId }))!._id);
  });

  afterEach(async () => {
    for (const unit of taken) await ledger().release({ channelKey: channelId, ...unit });
    taken = [];
  });

  afterAll(async () => {
    await closeRedisClient(redis);
    await disconnectStackDatabase();
  });

  /** Takes units for contacts reached elsewhere; answers their tokens, to free them later. */
  async function fill(units: number): Promise<Array<{ contactKey: string; token: string }>> {
    const filled: Array<{ contactKey: string; token: string }> = [];
    for (let index = 0; index < units; index += 1) {
      const contactKey = randomUUID();
      const unit = await ledger().take({ channelKey: channelId, contactKey, limit: 250 });
      if (unit.ok && unit.newUnit) filled.push({ contactKey, token: unit.token });
    }
    taken.push(...filled);
    return filled;
  }

  it('a single template send over the limit: 429 MESSAGING_LIMIT_REACHED with Retry-After, nothing sent; free-form replies are not limited', async () => {
    const filled = await fill(250);
    const since = await lastRequestSeq();
    const refused = await business.api.post('/conversation/messages/template', { conversation: { uuid: closed[0] }, template: { name: 'order_update', language: 'es_MX' }, variables: [{ index: 1, value: 'Ana' }] });
    expect([refused.status, refused.body.code]).toEqual([429, 'MESSAGING_LIMIT_REACHED']);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(86_000);
    const text = await business.api.post('/conversation/messages/text', { conversation: { uuid: open }, text: 'A reply inside the window' });
    expect(text.status).toBe(201);
    expect((await messageRequests(business, since)).map((call) => (call.body as { type?: string }).type)).toEqual(['text']);
    // The refused send left no message behind: a retry once a unit frees goes out.
    await ledger().release({ channelKey: channelId, ...filled[0]! });
    const retried = await business.api.post('/conversation/messages/template', { conversation: { uuid: closed[0] }, template: { name: 'order_update', language: 'es_MX' }, variables: [{ index: 1, value: 'Ana' }] });
    expect(retried.status).toBe(201);
    // 249 filled + the contact reached by the retry.
    expect(await ledger().remaining({ channelKey: channelId, limit: 250 })).toBe(0);
  });

  it('a broadcast that reaches the limit pauses (messaging_limit) and resumes by itself when units free', async () => {
    const remaining = (await ledger().remaining({ channelKey: channelId, limit: 250 }))!;
    const filled = await fill(remaining - 2);
    const since = await lastRequestSeq();
    const contacts = await storedCollection('conversations').find({ _id: { $in: closed.slice(1) } }).toArray();
    const created = await business.api.post('/broadcasts', {
      name: 'limit',
      channel: business.seed.channels![0]!.public_key,
      template: { name: 'order_update', language: 'es_MX' },
      variables: [{ index: 1, value: 'there' }],
      audience: { contacts: contacts.map((conversation) => conversation['contact_id']) },
    });
    expect(created.status).toBe(201);
    const paused = await eventually(
      () => storedCollection('broadcasts').findOne({ _id: created.body.uuid }),
      (broadcast) => broadcast?.['status'] === 'paused',
      30_000,
    );
    expect(paused!['pause_reason']).toBe('messaging_limit');
    // The pause lands when the third recipient finds no unit; the second, which took the last one,
    // may still be waiting for its slot then: it goes out all the same (a send holding its unit is
    // not turned back by this pause), and the third stays pending.
    const recipientStates = async () =>
      (await storedCollection('broadcast_recipients').find({ business_id: business.businessId, broadcast_id: created.body.uuid }).toArray()).map((recipient) => String(recipient['status'])).sort();
    expect(await eventually(recipientStates, (states) => states.filter((state) => state === 'sent').length === 2, 30_000)).toEqual(['pending', 'sent', 'sent']);
    expect((await storedCollection('broadcasts').findOne({ _id: created.body.uuid }))!['status']).toBe('paused');
    expect(await messageRequests(business, since)).toHaveLength(2);
    const pausedEvent = await eventually(
      () => storedCollection('events').findOne({ business_id: business.businessId, type: 'broadcast.paused' }),
      (event) => event !== null,
      10_000,
    );
    expect(pausedEvent!['data']).toMatchObject({ broadcast: { uuid: created.body.uuid, name: 'limit' }, reason: 'messaging_limit' });

    for (const unit of filled.slice(0, 10)) await ledger().release({ channelKey: channelId, ...unit });
    const completed = await eventually(
      () => storedCollection('broadcasts').findOne({ _id: created.body.uuid }),
      (broadcast) => broadcast?.['status'] === 'completed',
      30_000,
    );
    expect(completed!['counts']).toMatchObject({ total: 3, sent: 3, pending: 0 });
    expect(await messageRequests(business, since)).toHaveLength(3);
  });
});
