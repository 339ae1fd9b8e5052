import { CatalogError } from '@cmsg/errors';

/**
 * How one outbound message is addressed on the Cloud API: `to` (a phone, digits only) or
 * `recipient` (the business-scoped user id, BSUID, of a contact who shares no phone).
 */
export type Recipient = { kind: 'phone'; phone: string } | { kind: 'user_id'; user_id: string };

/** What a contact record knows about where to reach the person. */
export interface ContactAddress {
  phone?: string | null;
  user_id?: string | null;
}

export interface RecipientPolicy {
  /** Whether the platform lets this deployment send by BSUID; off until the provider enables it. */
  bsuidSendEnabled: boolean;
}

/**
 * Picks the address the Cloud API should use. The phone wins whenever there is one: the provider
 * recommends it, and a phone send keeps phone fields in later status webhooks.
 */
export function resolveRecipient(address: ContactAddress, policy: RecipientPolicy): Recipient {
  const phone = (address.phone ?? '').replace(/\D/g, '');
  if (phone) return { kind: 'phone', phone };
  const userId = address.user_id?.trim();
  if (!userId) throw new CatalogError('PREPARE_FAILED', 'The contact has neither a phone nor a platform user id to send to.');
  if (!policy.bsuidSendEnabled) throw new CatalogError('BSUID_SEND_DISABLED');
  return { kind: 'user_id', user_id: userId };
}

/** The request fields that carry the address: exactly one of `to` and `recipient`. */
export function recipientFields(recipient: Recipient): { to: string } | { recipient: string } {
  return recipient.kind === 'phone' ? { to: recipient.phone } : { recipient: recipient.user_id };
}
