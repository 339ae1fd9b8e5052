import { randomUUID } from 'node:crypto';
import { ConversationTimelineResponseSchema } from '@cmsg/api-schemas';
import { MessageRepository, TimelineEventRepository, businessScope } from '@cmsg/dal';
import { generateApiToken } from '@cmsg/seed';
import {
  type ApiClient,
  type TestBusiness,
  contactSeed,
  createTestBusiness,
  fakeWamid,
  inboundMediaWebhook,
  inboundTextWebhook,
  minutesAgo,
  storedCollection,
  uniquePhone,
} from '@cmsg/testing';
import { contentOf, uploadAndConfirm } from '../files/file-fixtures';
import { channelOf, cloudApi, deliverWebhook, eventually, inboundMessageByProviderId } from '../inbound/inbound-fixtures';
import { conversationActionsClient, phoneNumberIdOf } from '../messaging/messaging-fixtures';

interface Item {
  uuid: string;
  kind: 'message' | 'note' | 'event';
  created_at: string;
  author: { type: string; uuid: string | null; name: string | null };
  [field: string]: unknown;
}

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 5)]);

/** The timeline's order (CONTRACT 9.1, docs/decisions.md): created_at, a message before a note or an event of the same instant, then uuid. */
function timelineOrder(a: Item, b: Item): number {
  const tier = (item: Item) => (item.kind === 'message' ? 0 : 1);
  return Date.parse(a.created_at) - Date.parse(b.created_at) || tier(a) - tier(b) || (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0);
}

/** Every page of a walk, several tokens taking turns (the rate limit is 60 requests a minute per token). */
async function walk(clients: ApiClient[], query: Record<string, string | number>): Promise<{ items: Item[]; pages: number }> {
  const items: Item[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await clients[pages % clients.length]!.get('/conversation/timeline', { ...query, cursor });
    expect(page.status).toBe(200);
    expect(ConversationTimelineResponseSchema.safeParse(page.body).success).toBe(true);
    items.push(...(page.body.items as Item[]));
    pages += 1;
    cursor = page.body.has_more ? page.body.next_cursor : undefined;
    if (!page.body.has_more) expect(page.body.next_cursor).toBe('');
  } while (cursor);
  return { items, pages };
}

describe('GET /{slug}/conversation/timeline (CONTRACT 9.1)', () => {
  let business: TestBusiness;
  let other: TestBusiness;
  let clients: ApiClient[];
  const ai = randomUUID();
  const phone = uniquePhone();
  const conversation = randomUUID();
  const contact = randomUUID();
  const seededInbound = randomUUID();
  const digits = phone.replace(/\D/g, '');
  const made: Record<string, string> = {};
  /** A conversation whose timeline is written straight to the collections (120 items). */
  const busy = randomUUID();

  beforeAll(async () => {
    const extraTokens = [generateApiToken(), generateApiToken()];
    business = await createTestBusiness((seed) => {
      seed.vision_wallet_tokens = 50_000;
      seed.ai_employees = [{ uuid: ai, name: 'Ava', model: 'gpt-test', wallet_tokens: 10_000 }];
      seed.api_tokens!.push(...extraTokens.map((token) => ({ uuid: randomUUID(), token })));
      contactSeed(seed, {
        uuid: contact,
        first_name: 'Ana',
        last_name: 'Timeline',
        phone,
        conversation: { uuid: conversation, messages: [{ uuid: seededInbound, is_from_customer: true, body: 'hola', created_at: minutesAgo(10) }] },
      });
      contactSeed(seed, { conversation: { uuid: busy, messages: [] } });
    });
    clients = [business.api, ...extraTokens.map((token) => business.api.withToken(token))];
    other = await createTestBusiness((seed) => {
      contactSeed(seed, { conversation: { uuid: randomUUID(), messages: [] } });
    });

    // The customer writes, and sends a photo the vision model describes.
    const textWamid = fakeWamid();
    expect((await deliverWebhook(inboundTextWebhook({ ...channelOf(business), from: digits, id: textWamid, text: '¿Tienen envío?' }))).status).toBe(200);
    made['inboundText'] = (await eventually(() => inboundMessageByProviderId(business.businessId, textWamid), (found) => found?.ingest?.conversation_applied === true))!._id;
    const registered = await cloudApi().registerMedia({ bytes: PNG, mime_type: 'image/png' });
    const imageWamid = fakeWamid();
    expect(
      (await deliverWebhook(inboundMediaWebhook({ ...channelOf(business), from: digits, id: imageWamid, media_type: 'image', media: { id: registered.id, mime_type: 'image/png', caption: 'mi recibo' } })))
        .status,
    ).toBe(200);
    made['inboundImage'] = (await eventually(() => inboundMessageByProviderId(business.businessId, imageWamid), (found) => found?.media?.transcription_status === 'transcribed'))!._id;

    // The team answers: a text, a photo with its description, an AI employee's text and a send the provider refuses.
    const text = await business.api.post('/conversation/messages/text', { conversation: { uuid: conversation }, text: 'Sí, a todo el país' });
    expect(text.status).toBe(201);
    made['outboundText'] = text.body.message.uuid;
    const { confirmed } = await uploadAndConfirm(business, 'image/jpeg', contentOf('image/jpeg', 2048), 'catalogo.jpg');
    made['file'] = confirmed.body.file.uuid;
    const photo = await business.api.post('/conversation/messages/text', { conversation: { uuid: conversation }, text: 'El catálogo', file_uuid: made['file'], transcription: 'Catalog cover.' });
    expect(photo.status).toBe(201);
    made['outboundPhoto'] = photo.body.message.uuid;
    const grpc = conversationActionsClient();
    const byAi = await grpc.rpc.sendMessage({
      caller: { business_id: business.businessId, token_uuid: business.tokenUuid },
      conversation: { uuid: conversation },
      operation_id: `${randomUUID()}:0`,
      author: { type: 'ai_employee', uuid: ai },
      text: { body: '¿Algo más?' },
    });
    grpc.close();
    made['aiText'] = byAi.message!.uuid;
    const api = cloudApi();
    const [ruleId] = await api.addRules({ match: { phone_number_id: phoneNumberIdOf(business), to: digits }, status: 500, times: 1 });
    try {
      const failing = await business.api.post('/conversation/messages/text', { conversation: { uuid: conversation }, text: 'this one fails' });
      expect([failing.status, failing.body.code]).toEqual([502, 'SEND_FAILED']);
    } finally {
      await api.removeRule(ruleId!).catch(() => undefined);
    }
    made['failed'] = (await storedCollection('messages').findOne({ conversation_id: conversation, status: 'failed' }))!._id as string;

    const note = await business.api.post('/conversation/notes', { conversation: { uuid: conversation }, note: 'Wants delivery on Tuesday' });
    expect(note.status).toBe(201);
    made['note'] = note.body.note.uuid;
    expect((await business.api.post('/conversation/pending', { conversation: { uuid: conversation } })).status).toBe(200);
    made['statusChange'] = (await storedCollection('timeline_events').findOne({ conversation_id: conversation, kind: { $ne: 'note' } }))!._id as string;
  }, 120_000);

  it('shows messages, notes and events in order, oldest first by default, with their authors, media, statuses and errors', async () => {
    const response = await business.api.get('/conversation/timeline', { conversation_uuid: conversation });
    expect(response.status).toBe(200);
    expect(ConversationTimelineResponseSchema.safeParse(response.body).success).toBe(true);
    expect(response.body).toMatchObject({ has_more: false, next_cursor: '' });
    const items = response.body.items as Item[];
    expect(items.map((item) => item.uuid).sort()).toEqual(
      [seededInbound, made['inboundText'], made['inboundImage'], made['outboundText'], made['outboundPhoto'], made['aiText'], made['failed'], made['note'], made['statusChange']].sort(),
    );
    expect(items).toEqual([...items].sort(timelineOrder));
    const byUuid = new Map(items.map((item) => [item.uuid, item]));
    const customer = { type: 'customer', uuid: contact, name: 'Ana Timeline' };
    const token = { type: 'api_token', uuid: business.tokenUuid, name: null };

    expect(byUuid.get(made['inboundText']!)).toEqual({
      uuid: made['inboundText'],
      kind: 'message',
      created_at: expect.any(String),
      author: customer,
      direction: 'inbound',
      content_type: 'text',
      body: '¿Tienen envío?',
      media: null,
      status: 'received',
      error: null,
      pricing: null,
    });
    expect(byUuid.get(made['inboundImage']!)).toMatchObject({
      author: customer,
      direction: 'inbound',
      content_type: 'image',
      body: 'mi recibo',
      media: { file_uuid: expect.any(String), mime_type: 'image/png', transcription: expect.stringMatching(/^AI\(gpt-4o-mini\): re: /) },
      status: 'received',
    });
    expect(byUuid.get(made['outboundText']!)).toMatchObject({ author: token, direction: 'outbound', content_type: 'text', body: 'Sí, a todo el país', media: null, status: 'sent', error: null });
    expect(byUuid.get(made['outboundPhoto']!)).toMatchObject({
      author: token,
      direction: 'outbound',
      content_type: 'image',
      body: 'El catálogo',
      media: { file_uuid: made['file'], mime_type: 'image/jpeg', transcription: 'Catalog cover.' },
      status: 'sent',
    });
    expect(byUuid.get(made['aiText']!)).toMatchObject({ author: { type: 'ai_employee', uuid: ai, name: 'Ava' }, direction: 'outbound', body: '¿Algo más?', status: 'sent' });
    expect(byUuid.get(made['failed']!)).toMatchObject({
      author: token,
      direction: 'outbound',
      body: 'this one fails',
      status: 'failed',
      error: { code: 'SEND_FAILED', message: expect.stringContaining('HTTP 500') },
    });
    expect(byUuid.get(made['note']!)).toEqual({ uuid: made['note'], kind: 'note', created_at: expect.any(String), author: token, note: 'Wants delivery on Tuesday' });
    expect(byUuid.get(made['statusChange']!)).toEqual({
      uuid: made['statusChange'],
      kind: 'event',
      created_at: expect.any(String),
      author: token,
      event: 'inbox_status_changed',
      data: { from: 'resolved', to: 'pending', reason: 'marked_pending' },
    });

    const newestFirst = await business.api.get('/conversation/timeline', { conversation_uuid: conversation, order: 'desc' });
    expect(newestFirst.body.items).toEqual([...items].reverse());
  });

  it('shows only the kinds asked for, in the same order', async () => {
    const all = (await business.api.get('/conversation/timeline', { conversation_uuid: conversation })).body.items as Item[];
    const only = async (kinds: string) => ((await business.api.get('/conversation/timeline', { conversation_uuid: conversation, kinds })).body.items as Item[]).map((item) => item.uuid);
    expect(await only('message')).toEqual(all.filter((item) => item.kind === 'message').map((item) => item.uuid));
    expect(await only('event,note')).toEqual(all.filter((item) => item.kind !== 'message').map((item) => item.uuid));
    expect(await only('event')).toEqual([made['statusChange']]);
    expect(await only('note,message,event')).toEqual(all.map((item) => item.uuid));
    const unknown = await business.api.get('/conversation/timeline', { conversation_uuid: conversation, kinds: 'message,reaction' });
    expect([unknown.status, unknown.body.code]).toEqual([400, 'INVALID_REQUEST']);
  });

  describe('paging across both collections', () => {
    const expected: string[] = [];

    beforeAll(async () => {
      const scope = businessScope(business.businessId);
      const messages = new MessageRepository();
      const timeline = new TimelineEventRepository();
      // 120 items over 30 instants: messages, notes, events as the event recorder writes them and
      // inbox status changes as written before it, several of each at one instant.
      const base = Date.now() - 3_600_000;
      const rows: { uuid: string; kind: string; at: number }[] = [];
      for (let index = 0; index < 120; index += 1) {
        const at = new Date(base + Math.floor(index / 4) * 1000);
        const uuid = randomUUID();
        const kind = ['message', 'note', 'message', 'event', 'legacy'][index % 5]!;
        rows.push({ uuid, kind: kind === 'legacy' ? 'event' : kind, at: at.getTime() });
        if (kind === 'message') {
          await messages.insert(scope, { _id: uuid, conversation_id: busy, is_from_customer: index % 2 === 0, body: `m${index}`, content_type: 'text', status: index % 2 === 0 ? 'received' : 'sent', author: index % 2 === 0 ? null : { type: 'api_token', uuid: business.tokenUuid }, created_at: at });
        } else if (kind === 'note') {
          await timeline.insertIfAbsent(scope, { id: uuid, conversationId: busy, kind: 'note', body: `n${index}`, author: { type: 'api_token', uuid: business.tokenUuid }, createdAt: at });
        } else if (kind === 'legacy') {
          // As written before events had a kind of their own (the repository no longer writes it).
          await storedCollection('timeline_events').insertOne({
            _id: uuid,
            business_id: business.businessId,
            conversation_id: busy,
            kind: 'inbox_status_changed',
            body: null,
            data: { from: 'resolved', to: 'pending', pending_reason: 'marked_pending' },
            author: { type: 'system', uuid: null },
            created_at: at,
          } as never);
        } else {
          await storedCollection('timeline_events').insertOne({
            _id: uuid,
            business_id: business.businessId,
            conversation_id: busy,
            kind: 'event',
            event_type: 'tags_changed',
            body: null,
            data: { added: [randomUUID()], removed: [] },
            author: { type: 'api_token', uuid: business.tokenUuid, name: null },
            created_at: at,
          } as never);
        }
      }
      rows.sort((a, b) => a.at - b.at || (a.kind === 'message' ? 0 : 1) - (b.kind === 'message' ? 0 : 1) || (a.uuid < b.uuid ? -1 : 1));
      expected.push(...rows.map((row) => row.uuid));
    });

    it('walks 120 mixed items 7 at a time, both ways, without a gap or a repeat', async () => {
      const ascending = await walk(clients, { conversation_uuid: busy, limit: 7 });
      expect(ascending.pages).toBe(18);
      expect(ascending.items.map((item) => item.uuid)).toEqual(expected);
      expect(ascending.items.filter((item) => item.kind === 'event').map((item) => item['event'])).toEqual(
        expect.arrayContaining(['tags_changed', 'inbox_status_changed']),
      );
      const descending = await walk(clients, { conversation_uuid: busy, limit: 7, order: 'desc' });
      expect(descending.items.map((item) => item.uuid)).toEqual([...expected].reverse());
      const messagesOnly = await walk(clients, { conversation_uuid: busy, limit: 7, kinds: 'message' });
      expect(messagesOnly.items.map((item) => item.uuid)).toEqual(expected.filter((uuid) => ascending.items.find((item) => item.uuid === uuid)!.kind === 'message'));
    });

    it('refuses a cursor with another conversation, kinds or order, or of another list: 400 INVALID_CURSOR', async () => {
      const first = await clients[1]!.get('/conversation/timeline', { conversation_uuid: busy, limit: 7, kinds: 'message,note' });
      const cursor = first.body.next_cursor as string;
      expect(cursor).not.toBe('');
      const again = await clients[1]!.get('/conversation/timeline', { conversation_uuid: busy, limit: 3, kinds: 'note,message', cursor });
      expect(again.status).toBe(200);
      for (const query of [
        { conversation_uuid: conversation, kinds: 'message,note' },
        { conversation_uuid: busy },
        { conversation_uuid: busy, kinds: 'message' },
        { conversation_uuid: busy, kinds: 'message,note', order: 'desc' },
      ]) {
        const response = await clients[2]!.get('/conversation/timeline', { ...query, cursor });
        expect([response.status, response.body.code]).toEqual([400, 'INVALID_CURSOR']);
      }
      const listCursor = (await clients[2]!.get('/conversations', { limit: 1 })).body.next_cursor as string;
      const foreign = await clients[2]!.get('/conversation/timeline', { conversation_uuid: busy, cursor: listCursor || 'x' });
      expect([foreign.status, foreign.body.code]).toEqual([400, 'INVALID_CURSOR']);
      const onList = await clients[2]!.get('/conversations', { cursor });
      expect([onList.status, onList.body.code]).toEqual([400, 'INVALID_CURSOR']);
    });
  });

  it('is 404 CONVERSATION_NOT_FOUND for an unknown conversation and for another business’s', async () => {
    const unknown = await business.api.get('/conversation/timeline', { conversation_uuid: randomUUID() });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'CONVERSATION_NOT_FOUND']);
    const foreign = await other.api.get('/conversation/timeline', { conversation_uuid: conversation });
    expect([foreign.status, foreign.body.code]).toEqual([404, 'CONVERSATION_NOT_FOUND']);
    const missing = await business.api.get('/conversation/timeline');
    expect([missing.status, missing.body.code]).toEqual([400, 'INVALID_REQUEST']);
  });

  it('is what the AI employees read: the same messages and notes, in the same order', async () => {
    const grpc = conversationActionsClient();
    const context = await grpc.rpc
      .getRecentTimeline({ caller: { business_id: business.businessId, token_uuid: business.tokenUuid }, conversation_uuid: conversation, limit: 100 })
      .finally(() => grpc.close());
    const items = (await business.api.get('/conversation/timeline', { conversation_uuid: conversation, kinds: 'message,note' })).body.items as Item[];
    expect(context.entries.map((entry) => entry.at)).toEqual(items.map((item) => item.created_at));
    expect(context.entries.map((entry) => entry.role)).toEqual(items.map((item) => (item.kind === 'note' ? 'note' : item['direction'] === 'inbound' ? 'customer' : 'business')));
  });
});
