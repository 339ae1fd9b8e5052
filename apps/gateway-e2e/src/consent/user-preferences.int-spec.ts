import { type TestBusiness, contactSeed, eventually, uniquePhone, userPreferencesWebhook } from '@cmsg/testing';
import { disconnectStackDatabase } from '../action-groups/action-group-fixtures';
import { channelOf, deliverWebhook } from '../inbound/inbound-fixtures';
import { createConsentBusiness, digitsOf, settledConsentChanges, storedConsent, withoutSequence } from './consent-fixtures';

jest.setTimeout(120_000);

/** The Cloud API's `user_preferences` webhook (CONTRACT 10.2, docs/consent.md). */
describe('user_preferences webhook', () => {
  let business: TestBusiness;
  const phones = { customer: uniquePhone(), other: uniquePhone() };
  const contacts = { customer: '', other: '' };

  beforeAll(async () => {
    business = await createConsentBusiness((seed) => {
      contacts.customer = contactSeed(seed, { phone: phones.customer }).uuid!;
      contacts.other = contactSeed(seed, { phone: phones.other, consent: { utility: { status: 'opted_in' } } }).uuid!;
    });
  });

  afterAll(() => disconnectStackDatabase());

  const deliver = async (phone: string, value: 'stop' | 'resume') => expect((await deliverWebhook(userPreferencesWebhook({ ...channelOf(business), wa_id: digitsOf(phone), value }))).status).toBe(200);

  it('stop sets consent.marketing opted_out with source provider, resume opts back in; a redelivery changes nothing', async () => {
    await deliver(phones.customer, 'stop');
    await deliver(phones.customer, 'stop');
    await eventually(() => storedConsent(contacts.customer), (consent) => consent.marketing === 'opted_out');
    const afterStop = await business.api.get(`/contacts/${contacts.customer}`);
    expect(afterStop.status).toBe(200);
    expect(afterStop.body.consent).toEqual({
      marketing: { status: 'opted_out', source: 'provider', updated_at: expect.any(String) },
      utility: { status: 'unknown', source: null, updated_at: null },
    });

    await deliver(phones.customer, 'resume');
    await deliver(phones.customer, 'resume');
    const changes = await settledConsentChanges(business.businessId, contacts.customer, 2);
    expect(withoutSequence(changes)).toEqual([
      { category: 'marketing', from: 'unknown', to: 'opted_out', source: 'provider' },
      { category: 'marketing', from: 'opted_out', to: 'opted_in', source: 'provider' },
    ]);
    expect((await business.api.get(`/contacts/${contacts.customer}`)).body.consent.marketing).toMatchObject({ status: 'opted_in', source: 'provider' });
  });

  it('touches only marketing, and nothing for a phone no contact of the channel has', async () => {
    await deliver(uniquePhone(), 'stop');
    await deliver(phones.other, 'stop');
    await eventually(() => storedConsent(contacts.other), (consent) => consent.marketing === 'opted_out');
    expect(await storedConsent(contacts.other)).toEqual({ marketing: 'opted_out', utility: 'opted_in' });
    expect(withoutSequence(await settledConsentChanges(business.businessId, contacts.other, 1))).toEqual([{ category: 'marketing', from: 'unknown', to: 'opted_out', source: 'provider' }]);
  });
});
