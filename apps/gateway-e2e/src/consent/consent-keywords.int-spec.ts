import { type BusinessSeedInput, type TestBusiness, contactSeed, fakeWamid, inboundTextWebhook, uniquePhone } from '@cmsg/testing';
import { disconnectStackDatabase } from '../action-groups/action-group-fixtures';
import { channelOf, deliverWebhook, eventually, inboundMessageByProviderId } from '../inbound/inbound-fixtures';
import { consentChanges, createConsentBusiness, digitsOf, settleConsentChanges, settledConsentChanges, storedConsent, withoutSequence } from './consent-fixtures';

jest.setTimeout(180_000);

/** One default keyword of each list, as a customer types it (padded, in lower case). */
// Every keyword of the default lists, and the folding: libs/inbox-ingest/src/consent-keywords.spec.ts.
const OPT_OUT_TEXTS = ['  stop '];
const OPT_IN_TEXTS = ['start'];

interface Customer {
  phone: string;
  contact: string;
  conversation: string;
}

function customerOf(seed: BusinessSeedInput, consent?: 'opted_out'): Customer {
  const phone = uniquePhone();
  const contact = contactSeed(seed, { phone, ...(consent ? { consent: { marketing: { status: consent }, utility: { status: consent } } } : {}) });
  return { phone, contact: contact.uuid!, conversation: contact.conversation!.uuid! };
}

/** Posts the text as the customer and waits until ingestion applied it (consent included). */
async function write(business: TestBusiness, customer: Customer, text: string): Promise<void> {
  const id = fakeWamid();
  expect((await deliverWebhook(inboundTextWebhook({ ...channelOf(business), from: digitsOf(customer.phone), id, text }))).status).toBe(200);
  await eventually(() => inboundMessageByProviderId(business.businessId, id), (message) => message?.ingest?.conversation_applied === true);
}

/** Keywords on inbound texts (CONTRACT 10.2, docs/consent.md "Keywords"). */
describe('consent keywords', () => {
  // Once for the file: both businesses use the test's database connection.
  afterAll(() => disconnectStackDatabase());

  describe('default lists', () => {
    let business: TestBusiness;
    const optOut = new Map<string, Customer>();
    const optIn = new Map<string, Customer>();

    // Every customer writes at once (one conversation each), and the events settle once for all:
    // each test then reads what its text changed.
    beforeAll(async () => {
      business = await createConsentBusiness((seed) => {
        for (const text of OPT_OUT_TEXTS) optOut.set(text, customerOf(seed));
        for (const text of OPT_IN_TEXTS) optIn.set(text, customerOf(seed, 'opted_out'));
      });
      const texts = [...optOut, ...optIn];
      await Promise.all(texts.map(([text, customer]) => write(business, customer, text)));
      await settleConsentChanges(
        business.businessId,
        texts.map(([, customer]) => ({ contactUuid: customer.contact, count: 2 })),
        2000,
      );
    });

    it.each(OPT_OUT_TEXTS)('%j opts out of both categories, the message still recorded on the timeline, one event per category', async (text) => {
      const customer = optOut.get(text)!;
      const changes = await consentChanges(business.businessId, customer.contact);
      expect(withoutSequence(changes).sort((a, b) => a.category.localeCompare(b.category))).toEqual([
        { category: 'marketing', from: 'unknown', to: 'opted_out', source: 'keyword' },
        { category: 'utility', from: 'unknown', to: 'opted_out', source: 'keyword' },
      ]);
      expect(await storedConsent(customer.contact)).toEqual({ marketing: 'opted_out', utility: 'opted_out' });
      const timeline = await business.api.get('/conversation/timeline', { conversation_uuid: customer.conversation, kinds: 'message' });
      expect(timeline.body.items).toEqual([expect.objectContaining({ direction: 'inbound', body: text })]);
    });

    it.each(OPT_IN_TEXTS)('%j opts back into both categories', async (text) => {
      const customer = optIn.get(text)!;
      const changes = await consentChanges(business.businessId, customer.contact);
      expect(withoutSequence(changes).sort((a, b) => a.category.localeCompare(b.category))).toEqual([
        { category: 'marketing', from: 'opted_out', to: 'opted_in', source: 'keyword' },
        { category: 'utility', from: 'opted_out', to: 'opted_in', source: 'keyword' },
      ]);
    });

    // A sentence holding a keyword says nothing: consent-keywords.spec.ts and
    // libs/inbox-ingest/src/ingest-inbound-message.usecase.spec.ts; end to end, the replaced STOP below.
  });

  describe("a business's own lists", () => {
    let business: TestBusiness;
    const customers = { stop: {} as Customer, basta: {} as Customer };

    beforeAll(async () => {
      business = await createConsentBusiness((seed) => {
        seed.consent_keywords = { opt_out: ['BASTA'] };
        customers.stop = customerOf(seed);
        customers.basta = customerOf(seed);
      });
    });


    it('replace the defaults: STOP is an ordinary text once opt_out is replaced, the business word opts out', async () => {
      await write(business, customers.stop, 'STOP');
      await write(business, customers.basta, 'basta');
      await settledConsentChanges(business.businessId, customers.basta.contact, 2);
      expect(await storedConsent(customers.basta.contact)).toEqual({ marketing: 'opted_out', utility: 'opted_out' });
      expect(await storedConsent(customers.stop.contact)).toEqual({ marketing: 'unknown', utility: 'unknown' });
      expect(await settledConsentChanges(business.businessId, customers.stop.contact, 0)).toEqual([]);
    });

    // A list left out keeps its default (START still opts in): consent-keywords.spec.ts.
  });
});
