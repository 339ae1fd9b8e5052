import { type TestBusiness, eventually, statusWebhook, storedCollection } from '@cmsg/testing';
import { disconnectStackDatabase, openConversation, phoneOf } from '../action-groups/action-group-fixtures';
import { channelOf, deliverWebhook } from '../inbound/inbound-fixtures';
import { cloudApi } from '../messaging/messaging-fixtures';
import { createConsentBusiness, settledConsentChanges, storedConsent, withoutSequence } from './consent-fixtures';

jest.setTimeout(120_000);

/** 131050, the provider's word that the customer stopped marketing messages (CONTRACT 10.2, docs/consent.md). */
describe('131050 records the provider opt-out', () => {
  let business: TestBusiness;
  const conversations = { onSend: '', late: '' };

  beforeAll(async () => {
    business = await createConsentBusiness((seed) => {
      conversations.onSend = openConversation(seed);
      conversations.late = openConversation(seed);
    });
    await cloudApi().addRules({ match: { to: phoneOf(business.seed, conversations.onSend) }, error: { code: 131050 } });
  });

  afterAll(() => disconnectStackDatabase());

  const contactOf = (conversation: string) => business.seed.contacts!.find((contact) => contact.conversation?.uuid === conversation)!.uuid!;
  const sendText = (conversation: string, text: string) => business.api.post('/conversation/messages/text', { conversation: { uuid: conversation }, text });

  it('a send answered 131050 fails CONTACT_OPTED_OUT with its provider code, and consent.marketing becomes opted_out, source provider, with its event', async () => {
    const response = await sendText(conversations.onSend, 'refused by the provider');
    expect([response.status, response.body.code, response.body.provider_code]).toEqual([409, 'CONTACT_OPTED_OUT', '131050']);
    const contact = contactOf(conversations.onSend);
    await eventually(() => storedConsent(contact), (consent) => consent.marketing === 'opted_out');
    const view = await business.api.get(`/contacts/${contact}`);
    expect(view.body.consent.marketing).toEqual({ status: 'opted_out', source: 'provider', updated_at: expect.any(String) });
    expect(view.body.consent.utility.status).toBe('unknown');
    expect(withoutSequence(await settledConsentChanges(business.businessId, contact, 1))).toEqual([{ category: 'marketing', from: 'unknown', to: 'opted_out', source: 'provider' }]);
  });

  it('a late failed status with 131050 does the same, once even when the status is delivered twice', async () => {
    const sent = await sendText(conversations.late, 'accepted, then refused');
    expect(sent.status).toBe(201);
    const uuid = sent.body.message.uuid as string;
    const wamid = (await storedCollection('messages').findOne({ _id: uuid }))!['provider_message_id'] as string;
    const errors = [{ code: 131050, title: 'Unable to deliver the message.', error_data: { details: 'The recipient stopped marketing messages.' } }];
    const payload = statusWebhook({ ...channelOf(business), recipient_id: phoneOf(business.seed, conversations.late), message_id: wamid, status: 'failed', errors });
    expect((await deliverWebhook(payload)).status).toBe(200);
    expect((await deliverWebhook(payload)).status).toBe(200);
    const contact = contactOf(conversations.late);
    await eventually(() => storedConsent(contact), (consent) => consent.marketing === 'opted_out');
    expect((await business.api.get(`/contacts/${contact}`)).body.consent.marketing).toMatchObject({ status: 'opted_out', source: 'provider' });
    expect(withoutSequence(await settledConsentChanges(business.businessId, contact, 1))).toEqual([{ category: 'marketing', from: 'unknown', to: 'opted_out', source: 'provider' }]);
  });
});
