import type { OutboxAuthor, OutboxEntry } from '@cmsg/dal';
import { outboxEntry } from '@cmsg/events';
import type { PlannedContactChange } from './contact-edit';

/** contact.created, pushed with the insert of a new contact (CONTRACT 10.1). */
export function contactCreatedEntry(contactId: string, conversationId: string | null, author: OutboxAuthor, now: Date, newId: () => string): OutboxEntry {
  return outboxEntry('contact.created', conversationId, { contact: { uuid: contactId } }, author, now, newId());
}

/** contact.updated naming what changed, and one contact.consent_changed per category that changed. */
export function contactChangeEntries(contactId: string, conversationId: string | null, change: PlannedContactChange, author: OutboxAuthor, now: Date, newId: () => string): OutboxEntry[] {
  const contact = { uuid: contactId };
  const entries: OutboxEntry[] = [];
  if (change.changed.length > 0) entries.push(outboxEntry('contact.updated', conversationId, { contact, changed: change.changed }, author, now, newId()));
  for (const consent of change.consentChanges) entries.push(outboxEntry('contact.consent_changed', conversationId, { contact, ...consent }, author, now, newId()));
  return entries;
}
