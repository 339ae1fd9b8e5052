import { randomBytes } from 'node:crypto';
import { type TestBusiness, contactSeed, fakeWamid, inboundTextWebhook, uniquePhone } from '@cmsg/testing';
import { disconnectStackDatabase } from '../action-groups/action-group-fixtures';
import { channelOf, deliverWebhook, eventually, inboundMessageByProviderId } from '../inbound/inbound-fixtures';
import { type ConsentChange, consentChanges, createConsentBusiness, digitsOf, storedConsent } from './consent-fixtures';

jest.setTimeout(120_000);

const KEYWORD_OPT_OUTS = 10;
const API_OPT_INS = 10;

/** Keyword opt-outs and API opt-ins racing on one contact (CONTRACT 10.2, docs/consent.md "Sources"). */
describe('concurrent consent changes on one contact', () => {
  let business: TestBusiness;
  const phone = uniquePhone();
  const externalId = `consent-race-${randomBytes(3).toString('hex')}`;
  let contact = '';

  beforeAll(async () => {
    business = await createConsentBusiness((seed) => {
      contact = contactSeed(seed, { phone, external_id: externalId }).uuid!;
    });
  });

  afterAll(() => disconnectStackDatabase());

  it('the last change applied stays, and the events chain: one per actual change, each from the previous to', async () => {
    const wamids = Array.from({ length: KEYWORD_OPT_OUTS }, () => fakeWamid());
    const optIn = { marketing: { status: 'opted_in' }, utility: { status: 'opted_in' } };
    const [webhooks, upserts] = await Promise.all([
      Promise.all(wamids.map((id) => deliverWebhook(inboundTextWebhook({ ...channelOf(business), from: digitsOf(phone), id, text: 'STOP' })))),
      Promise.all(Array.from({ length: API_OPT_INS }, () => business.api.post('/contacts', { external_id: externalId, consent: optIn }))),
    ]);
    expect(webhooks.map((response) => response.status)).toEqual(wamids.map(() => 200));
    expect(upserts.map((response) => [response.status, response.body.contact?.uuid])).toEqual(upserts.map(() => [200, contact]));
    for (const id of wamids) await eventually(() => inboundMessageByProviderId(business.businessId, id), (message) => message?.ingest?.consent_applied === true, 60_000);
    const stored = await storedConsent(contact);
    // A change's event is recorded right after it, or by the outbox relay seconds later on a loaded
    // run: read until every chain reaches the stored state (past the bound, the assertions below say what is missing).
    const complete = (changes: readonly ConsentChange[]) =>
      (['marketing', 'utility'] as const).every((category) => {
        const mine = changes.filter((change) => change.category === category);
        return mine.length > 0 && chainBreaks(mine).length === 0 && mine.at(-1)!.to === stored[category];
      });
    const changes = await eventually(() => consentChanges(business.businessId, contact), complete, 20_000).catch(() => consentChanges(business.businessId, contact));
    for (const category of ['marketing', 'utility'] as const) {
      const mine = changes.filter((change) => change.category === category);
      expect(mine.length).toBeGreaterThanOrEqual(1);
      expect(mine.every((change) => change.from !== change.to)).toBe(true);
      expect(chainBreaks(mine)).toEqual([]);
      expect(mine[0]!.from).toBe('unknown');
      expect(mine.at(-1)!.to).toBe(stored[category]);
      expect(mine.every((change) => (change.to === 'opted_out' ? change.source === 'keyword' : change.source === 'api'))).toBe(true);
    }
  });
});

/** The events whose `from` is not the previous event's `to`. */
function chainBreaks(changes: readonly ConsentChange[]): ConsentChange[] {
  return changes.filter((change, index) => index > 0 && change.from !== changes[index - 1]!.to);
}
