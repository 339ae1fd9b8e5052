import type { BusinessScope, ContactEntity, OutboxAuthor, OutboxEntry } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import { MAX_CHANGE_ROUNDS } from '../conversation/conversation-change';
import { type ContactEdit, planContactChange } from './contact-edit';
import { contactChangeEntries } from './contact-events';
import type { ContactPorts } from './contact-ports';

/**
 * Applies an edit to a contact by compare-and-set on its revision: a concurrent write makes this
 * one read the contact again and plan anew, so neither is lost, and each change emits its events
 * once (pushed in the same update, recorded right after; the relay records what a crash left).
 */
export async function writeContactEdit(
  ports: Pick<ContactPorts, 'contacts' | 'events' | 'clock' | 'ids'>,
  scope: BusinessScope,
  read: ContactEntity,
  edit: ContactEdit,
  author: OutboxAuthor,
  conversationId: string | null,
): Promise<ContactEntity> {
  let current = read;
  for (let round = 0; round < MAX_CHANGE_ROUNDS; round += 1) {
    const now = ports.clock();
    const plan = planContactChange(current, edit, now);
    if (!plan) return current;
    const outbox = contactChangeEntries(current._id, conversationId, plan, author, now, () => ports.ids.random());
    const written = await ports.contacts.updateAtRevision(scope, current._id, revisionOf(current), { set: plan.set, unset: plan.unset, outbox });
    if (written.outcome === 'updated') {
      if (outbox.length > 0) await ports.events.recordQuietly('contacts', scope, current._id, pendingUpToOurs(written.contact, outbox));
      return written.contact;
    }
    if (written.outcome === 'external_id_taken') throw new CatalogError('CONTACT_IDENTIFIER_CONFLICT', `Another contact holds the external_id ${JSON.stringify(edit.external_id)}.`);
    const reread = await ports.contacts.findById(scope, current._id);
    if (!reread) throw new CatalogError('CONTACT_NOT_FOUND', `No contact ${current._id} in this business.`);
    current = reread;
  }
  throw new CatalogError('UPDATE_FAILED', `The contact ${read._id} kept changing; retry.`);
}

/**
 * What this writer records: every entry still in the contact's outbox as its update left it, which
 * ends with its own. A contact event takes its sequence when recorded, so a writer that recorded only
 * its own could number its change before an earlier writer's still-unrecorded one and break the
 * from/to chain of contact.consent_changed; recording the earlier ones first (idempotent by id)
 * keeps the sequence in the order the changes were applied.
 */
function pendingUpToOurs(written: ContactEntity, ours: readonly OutboxEntry[]): readonly OutboxEntry[] {
  const pending = (written.outbox ?? []) as readonly OutboxEntry[];
  return pending.some((entry) => entry.id === ours[0]!.id) ? pending : ours;
}

export function revisionOf(contact: ContactEntity): number {
  return (contact as { revision?: number | null }).revision ?? 0;
}
