import { randomUUID } from 'node:crypto';
import { type TestBusiness, contactSeed, createTestBusiness, minutesAgo, storedCollection } from '@cmsg/testing';

describe('POST /{slug}/conversation/status', () => {
  let business: TestBusiness;
  const ids = { ai: randomUUID(), mailbox: randomUUID(), category: randomUUID(), tagA: randomUUID(), tagB: randomUUID() };
  const contacts: Record<string, { uuid: string; conversation: string; phone?: string | null; chat_user_id?: string | null }> = {};

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      seed.ai_employees = [{ uuid: ids.ai, name: 'Sofia', model: 'gpt-test', wallet_tokens: 1000 }];
      seed.tags = [
        { uuid: ids.tagA, name: 'VIP', color: '#ff0000' },
        { uuid: ids.tagB, name: 'Lead', color: '#00ff00' },
      ];
      seed.mailbox_categories = [{ uuid: ids.category, name: 'Sales', mailboxes: [{ uuid: ids.mailbox, name: 'Inbound sales' }] }];
      seed.channels!.push({ public_key: `${business_key(seed)}-second`, name: 'Second line', phone_number_id: `pn2-${seed.slug}` });
      const remember = (name: string, contact: ReturnType<typeof contactSeed>) =>
        (contacts[name] = { uuid: contact.uuid, conversation: contact.conversation!.uuid!, phone: contact.phone, chat_user_id: contact.chat_user_id });
      remember(
        'open',
        contactSeed(seed, {
          phone: '+52 1 (55) 1234-5678',
          chat_user_id: `MX.${randomUUID()}`,
          chat_username: 'Ana_Open',
          conversation: {
            uuid: randomUUID(),
            ai_employee: ids.ai,
            mailbox: ids.mailbox,
            tags: [ids.tagA, ids.tagB],
            inbox_status: 'pending',
            messages: [
              { uuid: randomUUID(), is_from_customer: true, body: 'hola', created_at: minutesAgo(120) },
              { uuid: randomUUID(), is_from_customer: false, body: 'hola, ¿en qué te ayudo?', created_at: minutesAgo(119) },
            ],
          },
        }),
      );
      remember(
        'closed',
        contactSeed(seed, {
          chat_user_id: `MX.${randomUUID()}`,
          conversation: { uuid: randomUUID(), messages: [{ uuid: randomUUID(), is_from_customer: true, body: 'old', created_at: minutesAgo(60 * 30) }] },
        }),
      );
      remember('silent', contactSeed(seed, { conversation: { uuid: randomUUID(), messages: [] } }));
      remember('tester', contactSeed(seed, { is_tester: true, conversation: { uuid: randomUUID(), messages: [{ uuid: randomUUID(), is_from_customer: true, body: 'test', created_at: minutesAgo(60) }] } }));
      // Same phone on two channels: ambiguous without `channel`.
      remember('dupA', contactSeed(seed, { phone: '+5215599990000', chat_username: 'twin' }));
      remember('dupB', contactSeed(seed, { phone: '+52 1 55 9999 0000', chat_username: 'TWIN', channel: `${business_key(seed)}-second` }));
    });
  });

  it('returns the full snapshot of an open, AI-owned conversation', async () => {
    const response = await business.api.post('/conversation/status', { conversation: { uuid: contacts['open']!.conversation } });
    expect(response.status).toBe(200);
    const body = response.body;
    // The seed stores phones in E.164 form.
    expect(body.conversation).toEqual({ uuid: contacts['open']!.conversation, phone: '+5215512345678', chat_user_id: contacts['open']!.chat_user_id });
    expect(body.window.status).toBe('open');
    expect(body.window.hours_remaining).toBeGreaterThan(21.9);
    expect(body.window.hours_remaining).toBeLessThan(22.1);
    expect(Date.parse(body.window.expires_at) - Date.now()).toBeGreaterThan(21.9 * 3_600_000);
    expect(body.assignment).toEqual({ ai_employee: { uuid: ids.ai, name: 'Sofia' } });
    expect(body.mailbox).toEqual({ uuid: ids.mailbox, name: 'Inbound sales' });
    expect(body.tags).toEqual([
      { uuid: ids.tagA, name: 'VIP', color: '#ff0000' },
      { uuid: ids.tagB, name: 'Lead', color: '#00ff00' },
    ]);
    expect(body.inbox_status).toBe('pending');
    expect(body.last_message).toMatchObject({ is_from_customer: false });
    expect(body.is_tester).toBe(false);
    expect(body.tester_virtual_now).toBeNull();
  });

  it('reports a closed window 24 h after the last inbound message, and nulls for what is absent', async () => {
    const closed = await business.api.post('/conversation/status', { conversation: { chat_user_id: contacts['closed']!.chat_user_id } });
    expect(closed.status).toBe(200);
    expect(closed.body.window.status).toBe('closed');
    expect(closed.body.window.hours_remaining).toBe(0);
    expect(closed.body.assignment).toEqual({ ai_employee: null });
    expect(closed.body.mailbox).toBeNull();
    expect(closed.body.tags).toEqual([]);

    const silent = await business.api.post('/conversation/status', { conversation: { uuid: contacts['silent']!.conversation } });
    expect(silent.body.window).toEqual({ status: 'closed', expires_at: null, hours_remaining: 0 });
    expect(silent.body.last_message).toBeNull();
    expect(silent.body.inbox_status).toBe('resolved');
  });

  it('normalises the phone to digits before lookup', async () => {
    for (const phone of ['+5215512345678', '5215512345678', '+52 1 55 1234 5678']) {
      const response = await business.api.post('/conversation/status', { conversation: { phone } });
      expect({ phone, status: response.status, uuid: response.body.conversation?.uuid }).toEqual({ phone, status: 200, uuid: contacts['open']!.conversation });
    }
  });

  it('uses the highest member when several are sent (uuid > chat_user_id > phone)', async () => {
    const response = await business.api.post('/conversation/status', {
      conversation: { uuid: contacts['closed']!.conversation, chat_user_id: contacts['open']!.chat_user_id, phone: '+5215512345678' },
    });
    expect(response.body.conversation.uuid).toBe(contacts['closed']!.conversation);
    const byUserId = await business.api.post('/conversation/status', { conversation: { chat_user_id: contacts['closed']!.chat_user_id, phone: '+5215512345678' } });
    expect(byUserId.body.conversation.uuid).toBe(contacts['closed']!.conversation);
  });

  it('answers 409 PHONE_NUMBER_AMBIGUOUS for a shared phone, and resolves it with `channel`', async () => {
    const ambiguous = await business.api.post('/conversation/status', { conversation: { phone: '+5215599990000' } });
    expect(ambiguous.status).toBe(409);
    expect(ambiguous.body.code).toBe('PHONE_NUMBER_AMBIGUOUS');
    const inChannel = await business.api.post('/conversation/status', { conversation: { phone: '+5215599990000', channel: business.channelKey } });
    expect(inChannel.status).toBe(200);
    expect(inChannel.body.conversation.uuid).toBe(contacts['dupA']!.conversation);
  });

  it('answers 404 CHANNEL_NOT_FOUND for an unknown channel and CONVERSATION_NOT_FOUND for no match', async () => {
    const channel = await business.api.post('/conversation/status', { conversation: { uuid: contacts['open']!.conversation, channel: 'nope' } });
    expect([channel.status, channel.body.code]).toEqual([404, 'CHANNEL_NOT_FOUND']);
    for (const conversation of [{ uuid: randomUUID() }, { phone: '+1 555 000 0000' }, { chat_user_id: 'unknown' }]) {
      const response = await business.api.post('/conversation/status', { conversation });
      expect([response.status, response.body.code]).toEqual([404, 'CONVERSATION_NOT_FOUND']);
    }
  });

  it('rejects a reference without uuid, chat_user_id or phone (username is not accepted here)', async () => {
    for (const conversation of [{}, { username: 'ana_open' }, { uuid: 'not-a-uuid' }]) {
      const response = await business.api.post('/conversation/status', { conversation });
      expect([response.status, response.body.code]).toEqual([400, 'INVALID_REQUEST']);
    }
    const missing = await business.api.post('/conversation/status', {});
    expect([missing.status, missing.body.code]).toEqual([400, 'INVALID_REQUEST']);
  });

  it('computes tester conversations on the business tester clock', async () => {
    const offsetMs = 23.5 * 3_600_000;
    await storedCollection('businesses').updateOne({ _id: business.businessId }, { $set: { tester_clock_offset_ms: offsetMs } });
    const response = await business.api.post('/conversation/status', { conversation: { uuid: contacts['tester']!.conversation } });
    expect(response.body.is_tester).toBe(true);
    expect(Math.abs(Date.parse(response.body.tester_virtual_now) - (Date.now() + offsetMs))).toBeLessThan(5000);
    // Wrote 1 h ago in real time; 23 h later on the virtual clock the window is closed.
    expect(response.body.window.status).toBe('closed');
    const real = await business.api.post('/conversation/status', { conversation: { uuid: contacts['open']!.conversation } });
    expect(real.body.window.status).toBe('open');
    expect(real.body.tester_virtual_now).toBeNull();
  });
});

function business_key(seed: { channels?: { public_key: string }[] }): string {
  return seed.channels![0]!.public_key;
}
