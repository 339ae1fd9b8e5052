import { createHash } from 'node:crypto';

/** Namespaces of the ids an operation names; never change one, or repeated operations would act again. */
const OUTBOUND_MESSAGE_NAMESPACE = Buffer.from('9d3c1b7e0a2f4c58b6e1d4a7f3c2b190', 'hex');
const NOTE_NAMESPACE = Buffer.from('4b8e2f6a1c3d4e7f9a0b5c6d7e8f9012', 'hex');
const CONTACT_ERASED_NAMESPACE = Buffer.from('c7a1e5d93b2f4806a4e8d1f0b6c39a25', 'hex');

/**
 * The uuid of part `part` (0-based) of an operation's send: a name-based UUID (RFC 9562 version 5,
 * SHA-1) of the business, the operation id and the part. The same operation always names the same
 * message, so the unique _id makes a repeat find the first attempt instead of sending again; the
 * business is part of the name so two tenants' operation ids can never collide.
 */
export function operationMessageId(businessId: string, operationId: string, part: number): string {
  return nameBasedUuid(OUTBOUND_MESSAGE_NAMESPACE, `${businessId}\n${operationId}\n${part}`);
}

/** The uuid of the note an operation adds, named the same way: a repeated AddNote finds the first note. */
export function operationNoteId(businessId: string, operationId: string): string {
  return nameBasedUuid(NOTE_NAMESPACE, `${businessId}\n${operationId}`);
}

/** The id of a contact's contact.erased event: every pass of its erasure names the same event. */
export function contactErasedEventId(businessId: string, contactId: string): string {
  return nameBasedUuid(CONTACT_ERASED_NAMESPACE, `${businessId}\n${contactId}`);
}

function nameBasedUuid(namespace: Buffer, name: string): string {
  const bytes = createHash('sha1').update(namespace).update(name, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
