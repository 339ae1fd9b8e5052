import { createHash } from 'node:crypto';

const RECIPIENT_NAMESPACE = Buffer.from('5be0a1c4d7e94f02a8c63b1e9d4f7a60', 'hex');

/**
 * A recipient's uuid, named by its broadcast and seq (RFC 9562 version 5): a freeze step run again
 * after a crash names the same recipients, so their ids (and their sends' operation ids) never change.
 */
export function recipientId(broadcastId: string, seq: number): string {
  const bytes = createHash('sha1').update(RECIPIENT_NAMESPACE).update(`${broadcastId}\n${seq}`, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
