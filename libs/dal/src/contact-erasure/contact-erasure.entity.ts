import type { OutboxEntry } from '../shared/outbox-entry.schema';

/**
 * erasing: the contact and its conversation are gone, their data is being deleted; settling: a
 * second pass after a short wait catches what writers in flight at the first pass still wrote;
 * erased: done, contact.erased recorded.
 */
export const ERASURE_STATES = ['erasing', 'settling', 'erased'] as const;
export type ErasureState = (typeof ERASURE_STATES)[number];

/**
 * One contact's erasure (CONTRACT 10.1, docs/contacts.md "Erasure"): the job that removes every
 * personal datum of the contact, and what stays of it. Holds no personal data itself: the ids only.
 */
export interface ContactErasureEntity {
  /** The erased contact's uuid. */
  _id: string;
  business_id: string;
  /** The contact's conversation (null when it had none). */
  conversation_id: string | null;
  state: ErasureState;
  /** When a pass is due next: now after the request, a lease while a pass runs, null once erased. */
  due_at: Date | null;
  /** The sequence contact.erased takes: after every event the conversation recorded. */
  event_sequence: number | null;
  requested_at: Date;
  finished_at: Date | null;
  /** contact.erased, pushed with the change to erased and pulled once recorded. */
  outbox?: OutboxEntry[];
}
