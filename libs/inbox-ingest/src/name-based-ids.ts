import { createHash } from 'node:crypto';

/**
 * A UUID derived from names (SHA-1, the version 5 layout): the same provider message, media or
 * sender always gives the same id, so a redelivered webhook finds what its first delivery wrote
 * instead of writing it again.
 */
export function nameBasedUuid(kind: string, ...names: string[]): string {
  const hash = createHash('sha1').update(['cmsg.inbox-ingest', kind, ...names].join('\u0000')).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The id of a sender's new contact: the one derived from it, or, when a contact with that id was
 * erased, the next of a chain derived from the erased id (CONTRACT 10.1: a sender that comes back
 * after an erasure is a new contact). Derived, so two deliveries of its first message agree.
 */
export async function newSenderContactId(channelId: string, identity: string, wasErased: (contactId: string) => Promise<boolean>): Promise<string> {
  let id = inboxIds.contact(channelId, identity);
  while (await wasErased(id)) id = nameBasedUuid('contact-after-erasure', id);
  return id;
}

/** Every id ingestion derives, in one place so two writers never derive one differently. */
export const inboxIds = {
  message: (channelId: string, providerMessageId: string) => nameBasedUuid('message', channelId, providerMessageId),
  contact: (channelId: string, identity: string) => nameBasedUuid('contact', channelId, identity),
  conversation: (contactId: string) => nameBasedUuid('conversation', contactId),
  contactCreatedEvent: (contactId: string) => nameBasedUuid('contact-created-event', contactId),
  mediaFile: (businessId: string, providerMediaId: string) => nameBasedUuid('media-file', businessId, providerMediaId),
  aiRunGroup: (messageId: string) => nameBasedUuid('ai-run', messageId),
  customerMessageEvent: (messageId: string) => nameBasedUuid('customer-message-event', messageId),
};
