/**
 * pending: frozen, not yet claimed; sending: claimed by a sender (its provider call may be under
 * way); sent -> delivered -> read -> replied as the provider and the customer answer; failed,
 * skipped, unknown: final (docs/broadcasts.md "Exactly once").
 */
export const RECIPIENT_STATES = ['pending', 'sending', 'sent', 'delivered', 'read', 'replied', 'failed', 'skipped', 'unknown'] as const;
export type RecipientState = (typeof RECIPIENT_STATES)[number];

/** CONTRACT 10.4 skip reasons. */
export const RECIPIENT_SKIP_REASONS = ['duplicate', 'opted_out', 'invalid_phone', 'invalid_row', 'missing_variable', 'cancelled'] as const;
export type RecipientSkipReason = (typeof RECIPIENT_SKIP_REASONS)[number];

export interface RecipientError {
  code: string;
  message: string;
  provider_code: string | null;
}

export interface BroadcastRecipientEntity {
  _id: string;
  business_id: string;
  broadcast_id: string;
  /** 0.. in freeze order; send slices are ranges of it. */
  seq: number;
  /** One recipient per contact: the contact id, or `seq:<n>` for a row without one. */
  dedupe_key: string;
  contact_id: string | null;
  conversation_id: string | null;
  phone: string | null;
  /** The file row it came from (file audiences). */
  row: number | null;
  /** The template variables rendered for this recipient. */
  variables: { index: number; value: string }[];
  status: RecipientState;
  reason: RecipientSkipReason | null;
  error: RecipientError | null;
  /** Raised each time a provider refusal puts it back to pending: the send's operation id changes with it. */
  attempt: number;
  /** Set once sent (absent before: the sparse index holds sent recipients only). */
  message_id?: string;
  claimed_at: Date | null;
  sent_at: Date | null;
}

/** The later states of a sent recipient, in order: a status only moves forward. */
export const DELIVERY_PROGRESS: readonly RecipientState[] = ['sent', 'delivered', 'read', 'replied'];
