import {
  AiEmployeeRepository,
  ApiTokenRepository,
  BusinessRepository,
  ChannelRepository,
  ContactRepository,
  ConversationRepository,
  MessageRepository,
  PaymentRepository,
  InProcessWebhookEndpointListVersions,
  TemplateRepository,
  WebhookEndpointRepository,
  businessScope,
  seedStoresOverMongo,
} from '@cmsg/dal';
import { connectToOwnDatabase, dropConnectedDatabase, storedCollection } from '@cmsg/testing-database';
import { hashApiToken } from './api-token';
import type { SeedFileInput } from './seed-file.schema';
import { seedIds } from './seed-ids';
import { SeedConflictError, seedDatabase, type SeedSummary } from './seed-loader';

const NOW = new Date('2025-06-15T12:00:00.000Z');
const hours = (n: number) => new Date(NOW.getTime() + n * 3_600_000);
const uuid = (prefix: string, n: number) => `${prefix}-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A business whose every id carries `tenant`, so each test owns its data (STYLE 8). */
function businessSeed(tenant: number, slug: string): SeedFileInput {
  const id = (kind: number) => uuid(`${String(tenant).padStart(4, '0')}${String(kind).padStart(4, '0')}`, kind);
  return {
    businesses: [
      {
        slug,
        name: `Business ${slug}`,
        time_zone: 'America/Mexico_City',
        vision_wallet_tokens: 500,
        payment_profile: { bank_name: 'Banco', account_holder: 'Acme SA', clabe: '012345678901234567' },
        api_tokens: [
          { uuid: id(1), token: `cmsg_${String(tenant).padStart(2, '0').repeat(32)}` },
          { uuid: id(2), token: `cmsg_${'f'.repeat(60)}${String(tenant).padStart(4, '0')}`, revoked: true },
        ],
        channels: [{ public_key: 'main', name: 'Main', phone: '+52 1 55 0000 0000', phone_number_id: `pn-${slug}`, default_scheduled_template: 'follow_up' }],
        ai_employees: [{ uuid: id(3), name: 'Ana', model: 'gpt-4o-mini', wallet_tokens: 1000 }],
        tags: [
          { uuid: id(4), name: 'New', is_default: true },
          { uuid: id(5), name: 'VIP', color: '#ff0000' },
        ],
        mailbox_categories: [{ uuid: id(6), name: 'Sales', mailboxes: [{ uuid: id(7), name: 'Leads' }] }],
        templates: [{ uuid: id(8), name: 'follow_up', language: 'es_MX', status: 'approved', category: 'utility', body: 'Hola {{1}}', channel: 'main' }],
        quick_replies: [{ uuid: id(9), name: 'Hours', actions: [{ text: '9 to 5' }] }],
        webhooks: [{ url: 'https://hooks.example.com/cmsg', secret: 'a-secret-of-16-chars' }],
        contacts: [
          {
            uuid: id(10),
            channel: 'main',
            first_name: 'Juan',
            phone: '+52 1 (55) 1234-5678',
            chat_username: '@JuanP',
            created_at: hours(-48).toISOString(),
            conversation: {
              uuid: id(11),
              ai_employee: id(3),
              mailbox: id(7),
              tags: [id(5)],
              inbox_status: 'pending',
              messages: [
                { uuid: id(12), is_from_customer: true, body: 'hola', created_at: hours(-5).toISOString() },
                { uuid: id(13), is_from_customer: false, body: '¿en qué te ayudo?', created_at: hours(-4).toISOString() },
                { uuid: id(14), is_from_customer: true, body: '', content_type: 'audio', media_transcription_pending: true, created_at: hours(-3).toISOString() },
                { uuid: id(15), is_from_customer: true, body: 'precio?', created_at: hours(-2).toISOString() },
              ],
              payments: [{ uuid: id(16), amount: '1250.00', currency: 'MXN', reference: 'INV-1', link: 'https://pay.example.com/1', due_date: '2025-07-01' }],
            },
          },
          { uuid: id(17), channel: 'main', first_name: 'Tess', phone: '+5215500000001', is_tester: true, created_at: hours(-24).toISOString() },
          {
            uuid: id(18),
            channel: 'main',
            chat_user_id: `MX.${slug}.1`,
            chat_username: 'ghost',
            conversation: { messages: [{ is_from_customer: true, body: 'relative', created_at: 'now-30m' }] },
          },
        ],
      },
    ],
  };
}

const EXPECTED_TOTALS = {
  businesses: 1,
  api_tokens: 2,
  channels: 1,
  ai_employees: 1,
  tags: 2,
  mailbox_categories: 1,
  mailboxes: 1,
  templates: 1,
  quick_replies: 1,
  webhook_endpoints: 1,
  contacts: 3,
  conversations: 3,
  messages: 5,
  payments: 1,
};

function countsOf(summary: SeedSummary, key: 'total' | 'inserted' | 'updated'): Record<string, number> {
  return Object.fromEntries(Object.entries(summary.businesses[0].counts).map(([collection, counts]) => [collection, counts[key]]));
}

const zeroes = Object.fromEntries(Object.keys(EXPECTED_TOTALS).map((collection) => [collection, 0]));

const STORED_COLLECTIONS = ['api_tokens', 'channels', 'contacts', 'conversations', 'messages', 'payments', 'templates', 'webhook_endpoints'];

/** Documents of the business in each collection, read straight from the database. */
async function documentCounts(businessId: string): Promise<Record<string, number>> {
  const entries = await Promise.all(
    STORED_COLLECTIONS.map(async (collection) => [collection, await storedCollection(collection).countDocuments({ business_id: businessId })] as const),
  );
  return Object.fromEntries(entries);
}

const aiEmployees = new AiEmployeeRepository();
const businesses = new BusinessRepository();
const apiTokens = new ApiTokenRepository();
const channels = new ChannelRepository();
const contacts = new ContactRepository();
const conversations = new ConversationRepository();
const messages = new MessageRepository();
const payments = new PaymentRepository();
const templates = new TemplateRepository();
// This file's database is its own: no other process keeps its endpoint lists.
const endpointListVersions = new InProcessWebhookEndpointListVersions();
const webhookEndpoints = new WebhookEndpointRepository(endpointListVersions);
const stores = seedStoresOverMongo(endpointListVersions);

describe('seedDatabase on MongoDB', () => {
  beforeAll(async () => {
    await connectToOwnDatabase('cmsg_seedtest');
  });

  // The database is this file's own: dropped, so the memory-backed server's heap stays flat.
  afterAll(async () => {
    await dropConnectedDatabase();
  });

  it('stores everything once and changes nothing when loaded again', async () => {
    const seed = businessSeed(1, 'Alpha');
    const first = await seedDatabase(stores, seed, { now: NOW });
    expect(countsOf(first, 'total')).toEqual(EXPECTED_TOTALS);
    expect(countsOf(first, 'inserted')).toEqual(EXPECTED_TOTALS);
    const businessId = first.businesses[0].uuid;
    expect(businessId).toBe(seedIds.business('alpha'));
    const before = await documentCounts(businessId);

    const second = await seedDatabase(stores, seed, { now: NOW });
    expect(second.businesses[0].uuid).toBe(businessId);
    expect(countsOf(second, 'inserted')).toEqual(zeroes);
    expect(countsOf(second, 'updated')).toEqual(zeroes);
    expect(await documentCounts(businessId)).toEqual(before);
    expect(before).toMatchObject({ api_tokens: 2, contacts: 3, conversations: 3, messages: 5, payments: 1, webhook_endpoints: 1 });
  });

  it('stores tokens hashed, lookup keys, and the derived conversation fields', async () => {
    const seed = businessSeed(2, 'Bravo');
    const [summary] = (await seedDatabase(stores, seed, { now: NOW })).businesses;
    const scope = businessScope(summary.uuid);
    const business = await businesses.findById(scope);
    expect(business).toMatchObject({ slug: 'Bravo', slug_lower: 'bravo', time_zone: 'America/Mexico_City', vision_wallet_tokens: 500, vision_wallet_funded_tokens: 500, tester_clock_offset_ms: 0 });
    expect(business?.payment_profile).toEqual({ bank_name: 'Banco', account_holder: 'Acme SA', clabe: '012345678901234567' });

    const tokens = (await apiTokens.listOfBusiness(scope)).sort((a, b) => a._id.localeCompare(b._id));
    const plaintext = seed.businesses[0].api_tokens![0].token;
    expect(tokens.map((token) => [token.token_sha256, token.revoked])).toEqual([
      [hashApiToken(plaintext), false],
      [hashApiToken(seed.businesses[0].api_tokens![1].token), true],
    ]);
    expect(JSON.stringify(tokens)).not.toContain(plaintext);
    expect(tokens[1].revoked_at).toEqual(NOW);

    const channel = await channels.findByPublicKey(scope, 'main');
    expect(channel).toMatchObject({ _id: seedIds.channel(summary.uuid, 'main'), phone: '+5215500000000', status: 'connected', default_scheduled_template: 'follow_up' });
    expect(await templates.findById(scope, seed.businesses[0].templates![0].uuid)).toMatchObject({ channel_id: channel?._id, variable_count: 1 });
    expect((await webhookEndpoints.listPage(scope, null, 20))[0]).toMatchObject({
      _id: seedIds.webhook(summary.uuid, 'https://hooks.example.com/cmsg'),
      url: 'https://hooks.example.com/cmsg',
      events: ['action.failed', 'action_group.finished'],
      secrets: [{ secret: seed.businesses[0].webhooks![0].secret, expires_at: null }],
      enabled: true,
      failing_since: null,
      slot: expect.any(Number),
    });

    const contactId = seed.businesses[0].contacts![0].uuid;
    const contact = await contacts.findById(scope, contactId);
    expect(contact).toMatchObject({ phone: '+5215512345678', phone_key: '5215512345678', chat_username: 'JuanP', username_key: 'juanp', created_at: hours(-48) });

    const conversation = await conversations.findByContactId(scope, contactId);
    const firstContact = seed.businesses[0].contacts![0];
    expect(conversation).toMatchObject({
      _id: firstContact.conversation!.uuid,
      channel_id: channel?._id,
      ai_employee_id: firstContact.conversation!.ai_employee,
      mailbox_id: firstContact.conversation!.mailbox,
      tag_ids: firstContact.conversation!.tags,
      inbox_status: 'pending',
      is_tester: false,
      last_message: { uuid: firstContact.conversation!.messages![3].uuid, body: 'precio?', content_type: 'text', is_from_customer: true, created_at: hours(-2) },
      last_inbound_at: hours(-2),
      unread_count: 2,
      media_awaiting_transcription: 1,
      awaiting_media_message_ids: [firstContact.conversation!.messages![2].uuid],
      sort_at: hours(-2),
      created_at: hours(-48),
    });
    const statuses = (await messages.findRecent(scope, conversation!._id, 10)).reverse();
    expect(statuses.map((message) => message.status)).toEqual(['received', 'sent', 'received', 'received']);

    const tester = await conversations.findByContactId(scope, seed.businesses[0].contacts![1].uuid);
    expect(tester).toMatchObject({ is_tester: true, last_message: null, unread_count: 0, inbox_status: 'resolved', sort_at: hours(-24), last_inbound_at: null });

    const byUserId = await conversations.findById(scope, seedIds.conversation(seed.businesses[0].contacts![2].uuid));
    expect(byUserId).toMatchObject({ last_inbound_at: new Date(NOW.getTime() - 30 * 60_000), unread_count: 1, created_at: NOW });
    expect(await payments.findById(scope, firstContact.conversation!.payments![0].uuid)).toMatchObject({
      conversation_id: conversation?._id,
      amount: '1250.00',
      currency: 'MXN',
      status: 'open',
    });
  });

  it("bumps the business's webhook endpoint list version when it loads endpoints, and only then", async () => {
    const seed = businessSeed(14, 'India');
    const scope = businessScope(seedIds.business('india'));
    const before = await endpointListVersions.current(scope);
    await seedDatabase(stores, seed, { now: NOW });
    const seeded = await endpointListVersions.current(scope);
    expect(seeded).not.toBe(before);
    await seedDatabase(stores, { businesses: [{ ...seed.businesses[0]!, webhooks: [] }] }, { now: NOW });
    expect(await endpointListVersions.current(scope)).toBe(seeded);
  });

  it('re-resolves relative times on a later load without duplicating anything', async () => {
    const seed = businessSeed(3, 'Charlie');
    const [first] = (await seedDatabase(stores, seed, { now: NOW })).businesses;
    const later = new Date(NOW.getTime() + 86_400_000);
    const [second] = (await seedDatabase(stores, seed, { now: later })).businesses;
    expect(second.counts.messages).toEqual({ total: 5, inserted: 0, updated: 1 });
    expect(second.counts.conversations).toEqual({ total: 3, inserted: 0, updated: 1 });
    // The contact whose customer message moved keeps a copy of its conversation's last_inbound_at (contact search, docs/contacts.md).
    expect(second.counts.contacts.updated).toBe(1);
    const conversation = await conversations.findById(businessScope(first.uuid), seedIds.conversation(seed.businesses[0].contacts![2].uuid));
    // created_at was decided by the first load; only the relative message moved.
    expect(conversation).toMatchObject({ created_at: NOW, last_inbound_at: new Date(later.getTime() - 30 * 60_000) });
    expect((await documentCounts(first.uuid))['messages']).toBe(5);
  });

  it('derives from messages stored since the last load', async () => {
    const seed = businessSeed(4, 'Delta');
    const [summary] = (await seedDatabase(stores, seed, { now: NOW })).businesses;
    const conversationId = seed.businesses[0].contacts![0].conversation!.uuid!;
    const scope = businessScope(summary.uuid);
    await messages.insert(scope, { _id: uuid('99999999', 4), conversation_id: conversationId, is_from_customer: false, body: 'live reply', status: 'sent', created_at: hours(-1) });
    await seedDatabase(stores, seed, { now: NOW });
    expect(await conversations.findById(scope, conversationId)).toMatchObject({ unread_count: 0, last_message: { body: 'live reply', is_from_customer: false }, sort_at: hours(-1) });
  });

  it('loads a business of 200 contacts again, every upsert matching a stored document', async () => {
    const seed = businessSeed(12, 'Large');
    const template = seed.businesses[0]!.contacts![0]!;
    const contacts = Array.from({ length: 200 }, (_, index) => ({
      ...template,
      uuid: uuid(`0012${String(index).padStart(4, '0')}`, 100 + index),
      phone: `+52 1 55 7000 ${String(index).padStart(4, '0')}`,
      chat_username: `large${index}`,
      conversation: { uuid: uuid(`0012${String(index).padStart(4, '0')}`, 300 + index) },
    }));
    const first = await seedDatabase(stores, { businesses: [{ ...seed.businesses[0]!, contacts }] }, { now: NOW });
    expect(first.businesses[0].counts.contacts.inserted).toBe(200);

    const renamed = contacts.map((contact, index) => ({ ...contact, first_name: `Renamed ${index}` }));
    const second = await seedDatabase(stores, { businesses: [{ ...seed.businesses[0]!, contacts: renamed }] }, { now: NOW });

    expect(second.businesses[0].counts.contacts).toMatchObject({ inserted: 0, updated: 200 });
    expect(await storedCollection('contacts').countDocuments({ business_id: first.businesses[0].uuid, first_name: /^Renamed / })).toBe(200);
  });

  it('moves a wallet by the difference when its funded total changes, keeping what was spent', async () => {
    const seed = businessSeed(13, 'Hotel');
    const [first] = (await seedDatabase(stores, seed, { now: NOW })).businesses;
    const scope = businessScope(first.uuid);
    const employeeId = seed.businesses[0].ai_employees![0].uuid;
    expect(await aiEmployees.chargeWallet(scope, employeeId, { tokens: 300, operationId: 'run-1' })).toMatchObject({ result: 'charged', balance: 700 });

    seed.businesses[0].ai_employees![0].wallet_tokens = 1500;
    seed.businesses[0].vision_wallet_tokens = 800;
    const [second] = (await seedDatabase(stores, seed, { now: NOW })).businesses;
    expect(second.counts.ai_employees).toEqual({ total: 1, inserted: 0, updated: 1 });
    expect(second.counts.businesses).toEqual({ total: 1, inserted: 0, updated: 1 });
    expect(await aiEmployees.findById(scope, employeeId)).toMatchObject({ wallet_tokens: 1200, wallet_funded_tokens: 1500 });
    expect(await businesses.findById(scope)).toMatchObject({ vision_wallet_tokens: 800, vision_wallet_funded_tokens: 800 });

    const [third] = (await seedDatabase(stores, seed, { now: NOW })).businesses;
    expect(third.counts.ai_employees.updated).toBe(0);
    expect((await aiEmployees.findById(scope, employeeId))?.wallet_tokens).toBe(1200);
  });

  it('loads different businesses concurrently', async () => {
    const summaries = await Promise.all([5, 6, 7].map((tenant) => seedDatabase(stores, businessSeed(tenant, `concurrent-${tenant}`), { now: NOW })));
    for (const summary of summaries) expect(countsOf(summary, 'inserted')).toEqual(EXPECTED_TOTALS);
  });

  it('loads the same business concurrently without duplicates', async () => {
    const seed = businessSeed(8, 'Echo');
    const summaries = await Promise.all([seedDatabase(stores, seed, { now: NOW }), seedDatabase(stores, seed, { now: NOW })]);
    expect(await documentCounts(summaries[0].businesses[0].uuid)).toMatchObject({ contacts: 3, conversations: 3, messages: 5 });
  });

  it('refuses ids and slugs that belong to another business', async () => {
    const owner = businessSeed(9, 'Foxtrot');
    await seedDatabase(stores, owner, { now: NOW });

    const thief = businessSeed(10, 'Golf');
    thief.businesses[0].contacts![0].uuid = owner.businesses[0].contacts![0].uuid;
    await expect(seedDatabase(stores, thief, { now: NOW })).rejects.toThrow(SeedConflictError);
    const contact = await contacts.findById(businessScope(seedIds.business('foxtrot')), owner.businesses[0].contacts![0].uuid);
    expect(contact?.business_id).toBe(seedIds.business('foxtrot'));

    const renamed = businessSeed(11, 'Foxtrot');
    renamed.businesses[0].uuid = uuid('abcdef00', 11);
    await expect(seedDatabase(stores, renamed, { now: NOW })).rejects.toThrow(/already belongs to business/);
  });
});
