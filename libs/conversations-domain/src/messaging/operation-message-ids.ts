import { createHash } from 'node:crypto';

/** Namespace of outbound message ids; never change it, or repeated operations would send again. */
const OUTBOUND_MESSAGE_NAMESPACE = Buffer.from('9d3c1b7e0a2f4c58b6e1d4a7f3c2b190', 'hex');

/**
 * The uuid of part `part` (0-based) of an operation's send: a name-based UUID (RFC 9562 version 5,
 * SHA-1) of the business, the operation id and the part. The same operation always names the same
 * message, so the unique _id makes a repeat find the first attempt instead of sending again; the
 * business is part of the name so two tenants' operation ids can never collide.
 */
export function operationMessageId(businessId: string, operationId: string, part: number): string {
  const bytes = createHash('sha1').update(OUTBOUND_MESSAGE_NAMESPACE).update(`${businessId}\n${operationId}\n${part}`, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
