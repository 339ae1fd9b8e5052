import { randomUUID } from 'node:crypto';
import { uniquePhone } from '@cmsg/testing';
import { type ActionsBusiness, createActionsBusiness, disconnectStackDatabase } from '../action-groups/action-group-fixtures';
import { cloudApi } from '../messaging/messaging-fixtures';

/** GET /contacts/{uuid}/eligibility (CONTRACT 10.3, docs/messaging.md "Eligibility"). */
describe('contact eligibility', () => {
  let business: ActionsBusiness;
  const openContact = randomUUID();
  const phones = { undeliverable: uniquePhone(), limited: uniquePhone() };

  beforeAll(async () => {
    business = await createActionsBusiness((seed) => {
      const channel = seed.channels![0]!.public_key;
      seed.templates!.push({ uuid: randomUUID(), name: 'promo', language: 'es_MX', status: 'approved', category: 'marketing', body: 'Promo', channel });
      seed.contacts = [
        ...(seed.contacts ?? []),
        { uuid: openContact, channel, phone: uniquePhone(), conversation: { uuid: randomUUID(), messages: [{ uuid: randomUUID(), is_from_customer: true, body: 'Hi', content_type: 'text', created_at: new Date(Date.now() - 300_000).toISOString() }] } },
      ];
    });
    await cloudApi().addRules({ match: { to: phones.undeliverable.replace(/\D/g, '') }, error: { code: 131026 } }, { match: { to: phones.limited.replace(/\D/g, '') }, error: { code: 131049 } });
  });

  afterAll(() => disconnectStackDatabase());

  const eligibility = async (uuid: string) => {
    const response = await business.api.get(`/contacts/${uuid}/eligibility`);
    expect(response.status).toBe(200);
    return response.body;
  };
  const contact = async (body: Record<string, unknown>) => (await business.api.post('/contacts', body)).body.contact.uuid as string;

  it('an open window: everything allowed', async () => {
    expect(await eligibility(openContact)).toEqual({
      window: { status: 'open', expires_at: expect.any(String) },
      can_send: { free_form: true, marketing: true, utility: true, authentication: true },
      reasons: [],
    });
  });

  it('a new contact: window closed, free form refused; opted out of marketing: marketing refused', async () => {
    expect(await eligibility(await contact({ phone: uniquePhone() }))).toEqual({
      window: { status: 'closed', expires_at: null },
      can_send: { free_form: false, marketing: true, utility: true, authentication: true },
      reasons: ['WINDOW_CLOSED'],
    });
    const optedOut = await eligibility(await contact({ phone: uniquePhone(), consent: { marketing: { status: 'opted_out' } } }));
    expect(optedOut.can_send).toEqual({ free_form: false, marketing: false, utility: true, authentication: true });
    expect(optedOut.reasons).toEqual(['WINDOW_CLOSED', 'CONTACT_OPTED_OUT']);
  });

  it('after a send failed RECIPIENT_UNDELIVERABLE: everything refused', async () => {
    const started = await business.api.post('/conversations', { contact: { phone: phones.undeliverable }, template: { name: 'order_update', language: 'es_MX' }, variables: [{ index: 1, value: 'Ana' }] });
    expect([started.status, started.body.code]).toEqual([422, 'RECIPIENT_UNDELIVERABLE']);
    const uuid = (await business.api.get('/contacts', { phone: phones.undeliverable })).body.items[0].uuid;
    const result = await eligibility(uuid);
    expect(result.can_send).toEqual({ free_form: false, marketing: false, utility: false, authentication: false });
    expect(result.reasons).toContain('RECIPIENT_UNDELIVERABLE');
  });

  it('after a marketing template refused with 131049: marketing refused for 24 h', async () => {
    const started = await business.api.post('/conversations', { contact: { phone: phones.limited }, template: { name: 'promo', language: 'es_MX' } });
    expect([started.status, started.body.code]).toEqual([422, 'MARKETING_LIMIT_REACHED']);
    const uuid = (await business.api.get('/contacts', { phone: phones.limited })).body.items[0].uuid;
    const result = await eligibility(uuid);
    expect(result.can_send).toEqual({ free_form: false, marketing: false, utility: true, authentication: true });
    expect(result.reasons).toEqual(['WINDOW_CLOSED', 'MARKETING_LIMIT_REACHED']);
  });

  it('without a phone: authentication refused; unknown contact: 404', async () => {
    const result = await eligibility(await contact({ chat_user_id: `user-${randomUUID()}` }));
    expect(result.can_send.authentication).toBe(false);
    const unknown = await business.api.get(`/contacts/${randomUUID()}/eligibility`);
    expect([unknown.status, unknown.body.code]).toEqual([404, 'CONTACT_NOT_FOUND']);
  });
});
