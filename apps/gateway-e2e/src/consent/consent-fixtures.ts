import { randomUUID } from 'node:crypto';
import { type BusinessSeedInput, type TestBusiness, createTestBusiness, eventually, storedCollection } from '@cmsg/testing';

/** The templates of every consent test business, one per category (CONTRACT 10.2). */
export const TEMPLATES = { marketing: 'weekly_promo', utility: 'order_ready', authentication: 'login_code' } as const;

/** A fresh business with one approved template of each category on its channel; `customize` adds contacts. */
export function createConsentBusiness(customize: (seed: BusinessSeedInput) => void = () => undefined): Promise<TestBusiness> {
  return createTestBusiness((seed) => {
    const channel = seed.channels![0]!.public_key;
    seed.templates = (Object.entries(TEMPLATES) as [keyof typeof TEMPLATES, string][]).map(([category, name]) => ({
      uuid: randomUUID(),
      name,
      language: 'es_MX',
      status: 'approved' as const,
      category,
      body: `${category} body`,
      channel,
    }));
    customize(seed);
  });
}

export type ConsentStatus = 'opted_in' | 'opted_out' | 'unknown';

export interface ConsentChange {
  sequence: number;
  category: string;
  from: ConsentStatus;
  to: ConsentStatus;
  source: string;
}

/** The contact's stored consent statuses (from the database: no request budget spent). */
export async function storedConsent(contactUuid: string): Promise<{ marketing: ConsentStatus; utility: ConsentStatus }> {
  const contact = await storedCollection('contacts').findOne({ _id: contactUuid });
  const consent = contact?.['consent'] as { marketing?: { status?: ConsentStatus }; utility?: { status?: ConsentStatus } } | undefined;
  return { marketing: consent?.marketing?.status ?? 'unknown', utility: consent?.utility?.status ?? 'unknown' };
}

/** The contact's contact.consent_changed events, in sequence order. */
export async function consentChanges(businessId: string, contactUuid: string): Promise<ConsentChange[]> {
  const events = await storedCollection('events').find({ business_id: businessId, type: 'contact.consent_changed', 'data.contact.uuid': contactUuid }).toArray();
  return events
    .map((event) => ({ sequence: event['sequence'] as number, ...(event['data'] as Omit<ConsentChange, 'sequence'>) }))
    .map(({ sequence, category, from, to, source }) => ({ sequence, category, from, to, source }))
    .sort((a, b) => a.sequence - b.sequence);
}

/** Waits for the contact to have `count` consent events, then a while longer for any that should not come. */
export async function settledConsentChanges(businessId: string, contactUuid: string, count: number): Promise<ConsentChange[]> {
  await settleConsentChanges(businessId, [{ contactUuid, count }]);
  return consentChanges(businessId, contactUuid);
}

/** Waits for each contact to have its count of consent events, then once a while longer (settleMs) for any that should not come. */
export async function settleConsentChanges(businessId: string, expected: readonly { contactUuid: string; count: number }[], settleMs = 1500): Promise<void> {
  await Promise.all(expected.map(({ contactUuid, count }) => eventually(() => consentChanges(businessId, contactUuid), (changes) => changes.length >= count, 30_000)));
  await new Promise((resolve) => setTimeout(resolve, settleMs));
}

/** The changes without their sequence, for equality checks. */
export const withoutSequence = (changes: readonly ConsentChange[]) => changes.map(({ sequence: _sequence, ...change }) => change);

export const digitsOf = (phone: string) => phone.replace(/\D/g, '');
