import { randomUUID } from 'node:crypto';
import type { BusinessSeedInput } from '@cmsg/testing';

export type TemplateSeed = NonNullable<BusinessSeedInput['templates']>[number];

/** An approved utility template in Spanish on the business's first channel, unless told otherwise. */
export function templateSeed(business: BusinessSeedInput, fields: Partial<TemplateSeed> & Pick<TemplateSeed, 'name'>): TemplateSeed {
  const template: TemplateSeed = {
    uuid: randomUUID(),
    language: 'es',
    status: 'approved',
    category: 'utility',
    body: 'Hola {{1}}',
    channel: business.channels![0]!.public_key,
    ...fields,
  };
  business.templates = [...(business.templates ?? []), template];
  return template;
}

/** A WhatsApp Business Account id no other test uses. */
export function uniqueWabaId(): string {
  return `waba-${randomUUID()}`;
}
