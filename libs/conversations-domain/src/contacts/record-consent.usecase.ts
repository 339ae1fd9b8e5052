import type { BusinessScope, OutboxAuthor } from '@cmsg/dal';
import type { ConsentCategory, ConsentSource, ConsentStatus } from './contact-edit';
import type { ContactPorts } from './contact-ports';
import { writeContactEdit } from './contact-writer';

/** A consent change the customer or the provider made (CONTRACT 10.2). */
export interface ConsentUpdate {
  contactId: string;
  conversationId: string | null;
  consent: Partial<Record<ConsentCategory, Exclude<ConsentStatus, 'unknown'>>>;
  source: Extract<ConsentSource, 'keyword' | 'provider'>;
  author: OutboxAuthor;
}

/**
 * Records consent the customer (a keyword) or the provider (131050, user_preferences) stated: each
 * category that changes emits contact.consent_changed; a category already in that status changes
 * nothing. Concurrent keyword and API changes apply in turn (compare-and-set), the last one stays.
 */
export async function recordConsent(ports: Pick<ContactPorts, 'contacts' | 'events' | 'clock' | 'ids'>, scope: BusinessScope, update: ConsentUpdate): Promise<void> {
  const contact = await ports.contacts.findById(scope, update.contactId);
  if (!contact) return;
  await writeContactEdit(ports, scope, contact, { consent: update.consent, consentSource: update.source }, update.author, update.conversationId);
}

/** The consent port the send path and the inbound path receive. */
export type ConsentRecorder = (scope: BusinessScope, update: ConsentUpdate) => Promise<void>;
