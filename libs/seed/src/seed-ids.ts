import { createHash } from 'node:crypto';

/** Namespace of every id the seed derives; never change it, or reseeding would duplicate data. */
const SEED_NAMESPACE = Buffer.from('6f1d2c3e4b5a49688a7b9c0d1e2f3a4b', 'hex');

/**
 * A name-based UUID (RFC 9562 version 5: SHA-1 of namespace + name) so that objects without
 * a uuid in the seed file keep the same id on every load.
 */
export function stableUuid(name: string): string {
  const bytes = createHash('sha1').update(SEED_NAMESPACE).update(name, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const seedIds = {
  business: (slugLower: string) => stableUuid(`business:${slugLower}`),
  channel: (businessId: string, publicKey: string) => stableUuid(`channel:${businessId}:${publicKey}`),
  webhook: (businessId: string, url: string) => stableUuid(`webhook:${businessId}:${url}`),
  conversation: (contactId: string) => stableUuid(`conversation:${contactId}`),
  message: (conversationId: string, index: number) => stableUuid(`message:${conversationId}:${index}`),
};
