import { randomUUID } from 'node:crypto';
import { generateApiToken } from '@cmsg/seed';
import { createTestBusiness, uniquePhone } from '@cmsg/testing';
import { type ActionsBusiness, createActionsBusiness, disconnectStackDatabase } from '../action-groups/action-group-fixtures';
import { messageRequests, lastRequestSeq } from '../messaging/messaging-fixtures';

/** POST /conversations (CONTRACT 10.3, docs/messaging.md "Starting a conversation"). */
describe('starting a conversation', () => {
  let business: ActionsBusiness;
  const readOnly = generateApiToken();

  beforeAll(async () => {
    business = await createActionsBusiness((seed) => {
      seed.api_tokens!.push({ uuid: randomUUID(), token: readOnly, scopes: ['conversations:read'] });
    });
  });

  afterAll(() => disconnectStackDatabase());

  const template = () => ({ template: { name: 'order_update', language: 'es_MX' }, variables: [{ index: 1, value: 'Ana' }] });
  const start = (body: Record<string, unknown>, headers: Record<string, string> = {}) => business.api.post('/conversations', { ...template(), ...body }, headers);
  const timeline = async (conversation: string) => (await business.api.get('/conversation/timeline', { conversation_uuid: conversation })).body.items as Array<Record<string, any>>;

  it('with a new phone: creates the contact and its conversation, sends the template once, shows it sent', async () => {
    const since = await lastRequestSeq();
    const phone = uniquePhone();
    const response = await start({ contact: { phone, first_name: 'Ana' } });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      conversation: { uuid: expect.any(String) },
      contact: { uuid: expect.any(String), created: true },
      message: { uuid: expect.any(String), status: 'sent', created_at: expect.any(String) },
    });
    expect((await messageRequests(business, since)).filter((call) => (call.body as { to?: string } | undefined)?.to === phone.replace(/\D/g, ''))).toHaveLength(1);
    const items = await timeline(response.body.conversation.uuid);
    expect(items.find((item) => item.uuid === response.body.message.uuid)).toMatchObject({ kind: 'message', direction: 'outbound', status: 'sent' });
    const contact = await business.api.get(`/contacts/${response.body.contact.uuid}`);
    expect(contact.body).toMatchObject({ first_name: 'Ana', conversation: { uuid: response.body.conversation.uuid } });
  });

  it('with an existing contact uuid, applying AI employee, mailbox, tags and note after the send', async () => {
    const existing = (await business.api.post('/contacts', { phone: uniquePhone() })).body.contact;
    const { catalog } = business;
    const response = await start({ contact: { uuid: existing.uuid }, ai_employee: catalog.ai.ana, mailbox: catalog.mailboxes.support, tags: [catalog.tags.vip], note: 'Order #1042' });
    expect(response.status).toBe(201);
    expect(response.body.contact).toEqual({ uuid: existing.uuid, created: false });
    const items = await timeline(response.body.conversation.uuid);
    const kinds = items.map((item) => (item.kind === 'event' ? item.event : item.kind));
    expect(kinds).toEqual(expect.arrayContaining(['message', 'assignment_changed', 'mailbox_changed', 'tags_changed', 'note']));
    expect(items.find((item) => item.kind === 'note')).toMatchObject({ note: 'Order #1042', author: { type: 'api_token' } });
  });

  it('an Idempotency-Key retry answers the same body and calls the provider once', async () => {
    const since = await lastRequestSeq();
    const key = randomUUID();
    const body = { contact: { phone: uniquePhone() } };
    const first = await start(body, { 'idempotency-key': key });
    const retry = await start(body, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect([retry.status, retry.body]).toEqual([201, first.body]);
    expect(await messageRequests(business, since)).toHaveLength(1);
  });

  it('refuses an opted-out contact 409 CONTACT_OPTED_OUT without a provider call', async () => {
    const optedOut = (await business.api.post('/contacts', { phone: uniquePhone(), consent: { utility: { status: 'opted_out' } } })).body.contact;
    const since = await lastRequestSeq();
    const response = await start({ contact: { uuid: optedOut.uuid }, note: 'never added' });
    expect([response.status, response.body.code]).toEqual([409, 'CONTACT_OPTED_OUT']);
    expect(await messageRequests(business, since)).toHaveLength(0);
    expect((await timeline(optedOut.conversation.uuid)).filter((item) => item.kind === 'note')).toEqual([]);
  });

  it('refuses a template that is not approved 422 TEMPLATE_NOT_APPROVED, sending nothing', async () => {
    const since = await lastRequestSeq();
    const response = await business.api.post('/conversations', { contact: { phone: uniquePhone() }, template: { name: 'promo_pending', language: 'es_MX' } });
    expect([response.status, response.body.code]).toEqual([422, 'TEMPLATE_NOT_APPROVED']);
    expect(await messageRequests(business, since)).toHaveLength(0);
  });

  it('refuses an unknown mailbox 404 MAILBOX_NOT_FOUND before creating the contact or sending', async () => {
    const since = await lastRequestSeq();
    const phone = uniquePhone();
    const response = await start({ contact: { phone }, mailbox: randomUUID() });
    expect([response.status, response.body.code]).toEqual([404, 'MAILBOX_NOT_FOUND']);
    expect(await messageRequests(business, since)).toHaveLength(0);
    expect((await business.api.get('/contacts', { phone })).body.items).toEqual([]);
  });

  it("answers 404 CONTACT_NOT_FOUND for another business's contact", async () => {
    const other = await createTestBusiness();
    const theirs = (await other.api.post('/contacts', { phone: uniquePhone() })).body.contact;
    const response = await start({ contact: { uuid: theirs.uuid } });
    expect([response.status, response.body.code]).toEqual([404, 'CONTACT_NOT_FOUND']);
  });

  it('needs conversations:write', async () => {
    const response = await business.api.withToken(readOnly).post('/conversations', { ...template(), contact: { phone: uniquePhone() } });
    expect([response.status, response.body.code]).toEqual([403, 'TOKEN_SCOPE_INSUFFICIENT']);
  });
});
