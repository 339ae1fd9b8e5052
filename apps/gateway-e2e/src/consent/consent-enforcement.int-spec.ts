import { randomUUID } from 'node:crypto';
import { type TestBusiness, storedCollection, uniquePhone } from '@cmsg/testing';
import { disconnectStackDatabase, openConversation, phoneOf, resultsOf, runGroup } from '../action-groups/action-group-fixtures';
import { cloudApi } from '../messaging/messaging-fixtures';
import { closedConversation, createSchedulingBusiness, humanSchedule, isFinal, makeDueNow, waitForSchedule } from '../scheduled-messages/scheduling-fixtures';
import { TEMPLATES, createConsentBusiness } from './consent-fixtures';

jest.setTimeout(120_000);

type Consent = { marketing?: { status: 'opted_in' | 'opted_out' }; utility?: { status: 'opted_in' | 'opted_out' } };
const OUT = { status: 'opted_out' } as const;

// Once for the file: both describes use the test's database connection.
afterAll(() => disconnectStackDatabase());

/** Refusals before any provider call, and what is still sent (CONTRACT 10.2, docs/consent.md "Enforcement"). */
describe('consent enforcement on sends', () => {
  let business: TestBusiness;
  const conversations = { marketingOut: '', bothOut: '', group: '', utilityOut: '' };

  beforeAll(async () => {
    business = await createConsentBusiness((seed) => {
      const optedOut = (consent: Consent) => openConversation(seed, {}, { consent });
      conversations.marketingOut = optedOut({ marketing: OUT });
      conversations.bothOut = optedOut({ marketing: OUT, utility: OUT });
      conversations.group = optedOut({ marketing: OUT });
      conversations.utilityOut = optedOut({ utility: OUT });
    });
  });


  const callsTo = async (conversation: string) => cloudApi().requests({ kind: 'message', to: phoneOf(business.seed, conversation) });
  const sendTemplate = (conversation: string, category: keyof typeof TEMPLATES) =>
    business.api.post('/conversation/messages/template', { conversation: { uuid: conversation }, template: { name: TEMPLATES[category], language: 'es_MX' } });
  const outboundOf = (conversation: string) => storedCollection('messages').find({ business_id: business.businessId, conversation_id: conversation, is_from_customer: false }).toArray();

  it('a marketing template to a contact opted out of marketing is 409 CONTACT_OPTED_OUT, nothing stored, no provider call', async () => {
    const response = await sendTemplate(conversations.marketingOut, 'marketing');
    expect([response.status, response.body.code]).toEqual([409, 'CONTACT_OPTED_OUT']);
    expect(await callsTo(conversations.marketingOut)).toEqual([]);
    expect(await outboundOf(conversations.marketingOut)).toEqual([]);
  });

  it('a utility template to a contact opted out of marketing only is sent; refused once utility is opted out', async () => {
    const sent = await sendTemplate(conversations.marketingOut, 'utility');
    expect([sent.status, sent.body.message?.status]).toEqual([201, 'sent']);
    expect((await callsTo(conversations.marketingOut)).map((call) => [call.status, (call.body as { template?: { name: string } }).template?.name])).toEqual([[200, TEMPLATES.utility]]);

    const refused = await sendTemplate(conversations.utilityOut, 'utility');
    expect([refused.status, refused.body.code]).toEqual([409, 'CONTACT_OPTED_OUT']);
    const marketing = await sendTemplate(conversations.utilityOut, 'marketing');
    expect([marketing.status, marketing.body.message?.status]).toEqual([201, 'sent']);
    expect((await callsTo(conversations.utilityOut)).map((call) => (call.body as { template?: { name: string } }).template?.name)).toEqual([TEMPLATES.marketing]);
  });

  it('an authentication template is sent even when both categories are opted out, and so is a free-form text inside the open window', async () => {
    const auth = await sendTemplate(conversations.bothOut, 'authentication');
    expect([auth.status, auth.body.message?.status]).toEqual([201, 'sent']);
    const text = await business.api.post('/conversation/messages/text', { conversation: { uuid: conversations.bothOut }, text: 'Thanks for writing, here is your answer.' });
    expect([text.status, text.body.message?.status]).toEqual([201, 'sent']);
    expect((await callsTo(conversations.bothOut)).map((call) => [call.status, (call.body as { type: string }).type])).toEqual([
      [200, 'template'],
      [200, 'text'],
    ]);
  });

  it("an action group's send_message with a marketing template fails with CONTACT_OPTED_OUT, no provider call", async () => {
    const group = await runGroup(business.api, { conversation: { uuid: conversations.group }, actions: [{ type: 'send_message', template: { name: TEMPLATES.marketing, language: 'es_MX' } }] });
    expect(resultsOf(group)).toEqual([['send_message', 'failed', 'CONTACT_OPTED_OUT']]);
    expect(await callsTo(conversations.group)).toEqual([]);
  });
});

describe('consent enforcement on a fired human schedule', () => {
  const marketing = randomUUID();
  const phone = uniquePhone();
  let conversation = '';


  it('a schedule of a marketing template to a contact opted out of marketing ends failed CONTACT_OPTED_OUT, no provider call', async () => {
    const business = await createSchedulingBusiness((seed) => {
      seed.templates!.push({ uuid: marketing, name: 'spring_sale', language: 'es_MX', status: 'approved', category: 'marketing', body: 'Spring sale!', channel: seed.channels![0]!.public_key });
      conversation = closedConversation(seed, {}, { phone, consent: { marketing: OUT } });
    });
    const payload = { kind: 'template', template_uuid: marketing, variables: [] };
    const created = await business.nextClient().post(
      '/conversation/scheduled-message',
      humanSchedule(conversation, 'America/Mexico_City', business.catalog, { message_kind: 'template', payload, template_uuid: marketing }),
    );
    expect([created.status, created.body.code]).toEqual([201, undefined]);
    const uuid = created.body.data.uuid as string;
    await makeDueNow(uuid);
    const schedule = await waitForSchedule(uuid, isFinal, 60_000);
    expect(schedule).toMatchObject({ status: 'failed', error: { code: 'CONTACT_OPTED_OUT' } });
    expect(await cloudApi().requests({ kind: 'message', to: phone.replace(/\D/g, '') })).toEqual([]);
  });
});
