import { hashApiToken } from './api-token';
import { deriveConversationState } from './conversation-derived-state';
import { parseSeedFile } from './seed-file.schema';
import { seedIds } from './seed-ids';
import * as ops from './seed-operations';

const NOW = new Date('2025-06-15T12:00:00.000Z');
const BUSINESS_ID = '0b7a4c1e-2f6d-4e8a-9c3b-5d1f7e9a2b4c';
const TOKEN = `cmsg_${'ab'.repeat(32)}`;
const CONTACT = '7c4b1d8f-9a3e-4f5b-8d0c-2e8a4f6b9c1d';

const [seed] = parseSeedFile({
  businesses: [
    {
      slug: 'Acme',
      name: 'Acme',
      api_tokens: [{ uuid: '1c8b5d2f-3a7e-4f9b-8d4c-6e2a8f0b3c5d', token: TOKEN, revoked: true }],
      channels: [{ public_key: 'main', name: 'Main', phone: '52 1 55 0000 0000', phone_number_id: '1001' }],
      templates: [
        { $comment: 'x', uuid: '6b3a0c7e-8f2d-4e4a-9c9b-1d7f3e5a8b0c', name: 'hi', language: 'es', status: 'approved', category: 'utility', body: '{{1}} {{3}}', channel: 'main', buttons: [{ $comment: 'y', type: 'quick_reply', text: 'ok' }] },
      ],
      contacts: [
        {
          uuid: CONTACT,
          channel: 'main',
          phone: '+52 1 (55) 1234-5678',
          chat_username: '@MiXeD',
          conversation: {
            messages: [{ is_from_customer: true, body: 'hi', created_at: 'now-1h' }],
            payments: [{ uuid: '9e6d3f0b-1c5a-4b7d-8f2e-4a0c6b8d1e3f' }, { uuid: 'aa6d3f0b-1c5a-4b7d-8f2e-4a0c6b8d1e3f' }],
          },
        },
      ],
    },
  ],
}).businesses;
const ctx = ops.seedContext(BUSINESS_ID, NOW);
const channelIds = new Map([['main', 'channel-id']]);
const plans = ops.planConversations(seed, ctx, channelIds);

describe('seed operations', () => {
  it('keeps only the hash of a token, with its revocation', () => {
    expect(ops.apiTokenFields(seed)).toEqual([
      { id: seed.api_tokens[0].uuid, tokenSha256: hashApiToken(TOKEN), scopes: ['conversations:read', 'conversations:write', 'webhooks:manage'], revoked: true },
    ]);
    expect(JSON.stringify(ops.apiTokenFields(seed))).not.toContain(TOKEN);
  });

  it('keys channels by public key with a derived id and an E.164 phone', () => {
    const [channel] = ops.channelFields(seed, ctx);
    expect(channel).toMatchObject({ publicKey: 'main', idOnInsert: seedIds.channel(BUSINESS_ID, 'main'), phone: '+5215500000000' });
  });

  it('derives the template variable count and drops comments', () => {
    const [template] = ops.templateUpserts(seed, channelIds);
    expect(template.set).toMatchObject({ channel_id: 'channel-id', variable_count: 3, buttons: [{ type: 'quick_reply', text: 'ok' }] });
    expect(JSON.stringify(template)).not.toContain('$comment');
  });

  it('stores contact lookup keys and leaves the creation time to the first load', () => {
    const [contact] = ops.contactUpserts(plans, ctx, new Map(), []);
    expect(contact.set).toMatchObject({ phone: '+5215512345678', phone_key: '5215512345678', chat_username: 'MiXeD', username_key: 'mixed' });
    expect(contact.set).not.toHaveProperty('created_at');
    expect(contact.setOnInsert).toEqual({ created_at: NOW, updated_at: NOW, revision: 0 });
  });

  it('stores the contact fields of CONTRACT 10 with their search keys, consent as imported', () => {
    const seed = parseSeedFile({
      businesses: [
        {
          slug: 'crm',
          name: 'CRM',
          channels: [{ public_key: 'main', name: 'Main', phone: '+5215500000000', phone_number_id: 'pn-crm', access_token: 'x' }],
          attribute_definitions: [{ key: 'plan', type: 'list', options: ['free', 'gold'] }, { key: 'orders', type: 'number' }],
          contacts: [
            {
              uuid: '0d2c7a3e-5b4f-4c1d-8e9a-1b2c3d4e5f60',
              channel: 'main',
              phone: '+5215511111111',
              first_name: 'Ángela',
              email: 'Angela@Example.com',
              language: 'es-MX',
              external_id: 'crm-1',
              attributes: { plan: 'gold', orders: 3 },
              consent: { marketing: { status: 'opted_out' } },
              conversation: { tags: [], inbox_status: 'pending' },
            },
          ],
        },
      ],
    }).businesses[0]!;
    const seedCtx = ops.seedContext('business-crm', NOW);
    const [contact] = ops.contactUpserts(ops.planConversations(seed, seedCtx, new Map([['main', 'channel-main']])), seedCtx, new Map(), seed.attribute_definitions);
    expect(contact!.set).toMatchObject({
      first_name_key: 'angela',
      email: 'Angela@Example.com',
      email_key: 'angela@example.com',
      language: 'es-MX',
      external_id: 'crm-1',
      external_id_key: 'business-crm:crm-1',
      attributes: [
        { k: 'plan', v: 'gold' },
        { k: 'orders', v: 3 },
      ],
      'consent.marketing': { status: 'opted_out', source: 'import', updated_at: NOW },
      inbox_status: 'pending',
      tag_ids: [],
    });
    expect(contact!.set).not.toHaveProperty('consent.utility');
  });

  it('refuses a contact attribute that is undefined or of the wrong type, naming it', () => {
    const file = (attributes: Record<string, unknown>) => ({
      businesses: [
        {
          slug: 'crm2',
          name: 'CRM',
          channels: [{ public_key: 'main', name: 'Main', phone: '+5215500000000', phone_number_id: 'pn-crm2', access_token: 'x' }],
          attribute_definitions: [{ key: 'orders', type: 'number' }],
          contacts: [{ uuid: '0d2c7a3e-5b4f-4c1d-8e9a-1b2c3d4e5f61', channel: 'main', phone: '+5215511111112', attributes }],
        },
      ],
    });
    expect(() => parseSeedFile(file({ plan: 'gold' }))).toThrow(/businesses\[0\]\.contacts\[0\]\.attributes: .*plan/);
    expect(() => parseSeedFile(file({ orders: 'three' }))).toThrow(/businesses\[0\]\.contacts\[0\]\.attributes: .*orders/);
    expect(parseSeedFile(file({ orders: 3 })).businesses[0]!.contacts[0]!.attributes).toEqual({ orders: 3 });
  });

  it('derives conversation and message ids that survive reloads', () => {
    expect(plans[0].conversationId).toBe(seedIds.conversation(CONTACT));
    expect(plans[0].messages[0]).toMatchObject({ _id: seedIds.message(plans[0].conversationId, 0), created_at: new Date('2025-06-15T11:00:00.000Z') });
    const [message] = ops.messageUpserts(plans);
    expect(message.set).toMatchObject({ status: 'received', content_type: 'text', is_simulated: false });
  });

  it('gives the conversation the state its messages imply', () => {
    const derived = new Map([[plans[0].conversationId, deriveConversationState(plans[0].messages, NOW)]]);
    const [conversation] = ops.conversationUpserts(plans, ctx, derived);
    expect(conversation.set).toMatchObject({ contact_id: CONTACT, channel_id: 'channel-id', unread_count: 1, last_inbound_at: new Date('2025-06-15T11:00:00.000Z') });
  });

  it('orders payments without times by file position', () => {
    const times = ops.paymentUpserts(plans, ctx).map((payment) => (payment.setOnInsert?.['created_at'] as Date).getTime());
    expect(times[1] - times[0]).toBe(1);
    expect(times[1]).toBe(NOW.getTime());
  });
});
