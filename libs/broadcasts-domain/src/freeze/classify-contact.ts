import { phoneDigits } from '@cmsg/contact-filter';
import type { BroadcastEntity, BroadcastRecipientEntity, RecipientSkipReason } from '@cmsg/dal';
import type { AudienceContact } from '../core/audience-ports';
import { type ParsedVariables, renderVariables } from '../variables';

/** A frozen recipient before its id and seq are given. */
export type FrozenRecipient = Omit<BroadcastRecipientEntity, '_id' | 'business_id' | 'broadcast_id' | 'seq'>;

/**
 * What a contact becomes in a broadcast (CONTRACT 10.4): a pending recipient with its rendered
 * variables, or skipped: `opted_out` for the template's category, `invalid_phone` without a
 * sendable phone, `missing_variable` for an empty placeholder without fallback.
 */
export function classifyContact(broadcast: Pick<BroadcastEntity, 'template'>, variables: ParsedVariables, contact: AudienceContact, row?: { number: number; columns: Record<string, string> }): FrozenRecipient {
  const base = {
    dedupe_key: contact.id,
    contact_id: contact.id,
    conversation_id: contact.conversation_id,
    phone: contact.phone,
    row: row?.number ?? null,
    variables: [],
    error: null,
    attempt: 0,
    claimed_at: null,
    sent_at: null,
  };
  const skipped = (reason: RecipientSkipReason): FrozenRecipient => ({ ...base, status: 'skipped', reason });
  if (isOptedOut(broadcast.template.category, contact)) return skipped('opted_out');
  if (!hasSendableAddress(contact)) return skipped('invalid_phone');
  const rendered = renderVariables(variables, { contact: { first_name: contact.first_name, last_name: contact.last_name, attributes: contact.attributes }, ...(row ? { row: row.columns } : {}) });
  if (!rendered.ok) return skipped('missing_variable');
  return { ...base, variables: rendered.variables, status: 'pending', reason: null };
}

/** A row that names no usable contact: kept as a recipient so that the counts cover every row. */
export function skippedRow(reason: RecipientSkipReason, dedupeKey: string, row: number | null, phone: string | null): FrozenRecipient {
  return { dedupe_key: dedupeKey, contact_id: null, conversation_id: null, phone, row, variables: [], status: 'skipped', reason, error: null, attempt: 0, claimed_at: null, sent_at: null };
}

function isOptedOut(category: string, contact: AudienceContact): boolean {
  if (category === 'marketing') return contact.consent.marketing === 'opted_out';
  if (category === 'utility') return contact.consent.utility === 'opted_out';
  return false;
}

function hasSendableAddress(contact: AudienceContact): boolean {
  if (contact.phone === null) return contact.chat_user_id !== null && contact.chat_user_id !== '';
  const digits = phoneDigits(contact.phone);
  return digits.length >= 8 && digits.length <= 15;
}
