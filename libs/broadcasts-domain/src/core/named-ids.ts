import { createHash } from 'node:crypto';

const RECIPIENT_NAMESPACE = Buffer.from('5be0a1c4d7e94f02a8c63b1e9d4f7a60', 'hex');
const CREATE_OPERATION_NAMESPACE = Buffer.from('c1f3e2a95b7d4c6e8f0a1b2c3d4e5f60', 'hex');

/** A uuid named by `name` within `namespace` (RFC 9562 version 5): the same name always gives the same id. */
function namedUuid(namespace: Buffer, name: string): string {
  const bytes = createHash('sha1').update(namespace).update(name, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A recipient's uuid, named by its broadcast and seq: a freeze step run again after a crash names
 * the same recipients, so their ids (and their sends' operation ids) never change.
 */
export function recipientId(broadcastId: string, seq: number): string {
  return namedUuid(RECIPIENT_NAMESPACE, `${broadcastId}\n${seq}`);
}

/**
 * The uuid of the broadcast a create operation makes (an Idempotency-Key retried after the gateway
 * lost the first answer): named by the business and the operation, so the retry finds it.
 */
export function broadcastIdForOperation(businessId: string, operationId: string): string {
  return namedUuid(CREATE_OPERATION_NAMESPACE, `${businessId}\n${operationId}`);
}
