import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { seedStoresOverMongo } from '@cmsg/dal';
import { generateApiToken, seedDatabase, type SeedFileInput, type SeedSummary } from '@cmsg/seed';
import { ApiClient } from './api-client';
import { connectToStackDatabase, integrationStack } from './integration-stack';
import type { StackDescription } from './local-stack';
import { stackEndpointListVersions } from './stack-endpoint-list-versions';

export type BusinessSeedInput = SeedFileInput['businesses'][number];
export type ContactSeedInput = NonNullable<BusinessSeedInput['contacts']>[number];

export interface TestBusiness {
  slug: string;
  token: string;
  tokenUuid: string;
  businessId: string;
  channelKey: string;
  seed: BusinessSeedInput;
  /** Client on the first gateway with this business's token. */
  api: ApiClient;
}

const issuedPhones = new Set<string>();

/**
 * A phone number no other test uses: ten random digits (15 in all, the E.164 maximum). Jest
 * reloads this module for every test file in a worker, so nothing kept in it (a counter, the
 * pid) can tell two files apart; randomness over 10^10 numbers can.
 */
export function uniquePhone(): string {
  for (;;) {
    const phone = `+52155${String(randomInt(0, 100_000)).padStart(5, '0')}${String(randomInt(0, 100_000)).padStart(5, '0')}`;
    if (!issuedPhones.has(phone)) {
      issuedPhones.add(phone);
      return phone;
    }
  }
}

/** An ISO time relative to now, for messages that must open (or not) the 24 h window. */
export function minutesAgo(minutes: number): string {
  return new Date(Date.now() - minutes * 60_000).toISOString();
}

/**
 * Seeds a fresh business through the seed format (CONTRACT 8), so every test has its own tenant:
 * no wiping, no interference between tests running in parallel.
 */
export async function createTestBusiness(customize: (business: BusinessSeedInput) => void = () => undefined): Promise<TestBusiness> {
  await connectToStackDatabase();
  return createTestBusinessIn(integrationStack(), customize);
}

/**
 * Loads a seed file into the stack's database (this process is connected to it), bumping the
 * webhook endpoint list versions in the stack's Redis as `npm run admin -- seed` does.
 */
export async function seedStackDatabase(seedFile: SeedFileInput, stack: Pick<StackDescription, 'env'> = integrationStack()): Promise<SeedSummary> {
  return seedDatabase(seedStoresOverMongo(await stackEndpointListVersions(stack)), seedFile);
}

/** The same, for any running stack whose database this process is already connected to. */
export async function createTestBusinessIn(
  stack: Pick<StackDescription, 'gatewayUrls' | 'env'>,
  customize: (business: BusinessSeedInput) => void = () => undefined,
): Promise<TestBusiness> {
  const suffix = randomBytes(5).toString('hex');
  const token = generateApiToken();
  const tokenUuid = randomUUID();
  const channelKey = `chan-${suffix}`;
  const business: BusinessSeedInput = {
    uuid: randomUUID(),
    slug: `Biz-${suffix}`,
    name: `Test business ${suffix}`,
    time_zone: 'America/Mexico_City',
    api_tokens: [{ uuid: tokenUuid, token }],
    channels: [{ public_key: channelKey, name: 'Main line', phone: uniquePhone(), phone_number_id: `pn-${suffix}`, access_token: `access-${suffix}` }],
    contacts: [],
  };
  customize(business);
  await seedStackDatabase({ businesses: [business] }, stack);
  return {
    slug: business.slug,
    token,
    tokenUuid,
    businessId: business.uuid!,
    channelKey,
    seed: business,
    api: new ApiClient(stack.gatewayUrls[0]!, token, business.slug),
  };
}

/** A contact with its conversation on the business's first channel. */
export function contactSeed(business: BusinessSeedInput, fields: Partial<ContactSeedInput> = {}): ContactSeedInput {
  const contact: ContactSeedInput = {
    uuid: randomUUID(),
    channel: business.channels![0]!.public_key,
    first_name: 'Test',
    last_name: 'Contact',
    phone: uniquePhone(),
    conversation: { uuid: randomUUID(), messages: [] },
    ...fields,
  };
  business.contacts = [...(business.contacts ?? []), contact];
  return contact;
}
