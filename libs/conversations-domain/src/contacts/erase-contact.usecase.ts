import type { BusinessScope, ClaimedErasure, OutboxEntry, ContactErasureEntity, ContactErasureRepository, ConversationDataEraser, ErasableFile } from '@cmsg/dal';
import { businessScope } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import { type OutboxRecorder, SYSTEM_AUTHOR, type SequencedEntry, outboxEntry } from '@cmsg/events';
import { contactErasedEventId } from '../conversation/operation-ids';
import type { ContactConversations, ContactStore } from './contact-ports';
import { existingContact } from './get-contact.usecase';

/** What an erasure needs (CONTRACT 10.1, docs/contacts.md "Erasure"), built once in the app's composition root. */
export interface ContactErasurePorts {
  contacts: Pick<ContactStore, 'findById'>;
  conversations: Pick<ContactConversations, 'idsByContactIds'>;
  erasures: Pick<ContactErasureRepository, 'findById' | 'insertIfAbsent' | 'claim' | 'findDueAcrossBusinesses' | 'keepEventSequence' | 'settle' | 'finish'>;
  data: Pick<ConversationDataEraser, 'deleteContact' | 'deleteConversation' | 'customerMediaFiles' | 'deleteFiles' | 'deleteConversationRecords' | 'deleteEvents'>;
  /** The GridFS content of a file (libs/files); content already gone is fine. */
  mediaContent: { delete(contentId: ErasableFile['content_id']): Promise<void> };
  events: OutboxRecorder;
  clock: () => Date;
  /** A pass's lease (a replica that dies mid-pass leaves it due again then), and the wait before the settling pass. */
  timing: { leaseMs: number; settleMs: number };
}

/** What DELETE /contacts/{uuid} answers (202): the erasure runs on after it. */
export interface ErasureRequested {
  contactId: string;
  conversationId: string | null;
}

/**
 * DELETE /contacts/{uuid}: records the erasure and deletes the contact document at once (every
 * read answers CONTACT_NOT_FOUND from now on); the passes delete the rest. A repeat while it runs
 * answers the same; an erased or unknown contact, or another business's, is CONTACT_NOT_FOUND.
 */
export async function requestContactErasure(ports: ContactErasurePorts, scope: BusinessScope, uuid: string): Promise<ErasureRequested> {
  const running = await ports.erasures.findById(scope, uuid);
  if (running) return repeatOf(running, uuid);
  try {
    await existingContact(ports, scope, uuid);
  } catch (notFound) {
    // A request of the same erasure may have recorded it and deleted the contact between the two
    // reads (it records before it deletes): this one is then a repeat while it runs.
    const recorded = await ports.erasures.findById(scope, uuid);
    if (!recorded) throw notFound;
    return repeatOf(recorded, uuid);
  }
  const conversationId = (await ports.conversations.idsByContactIds(scope, [uuid])).get(uuid) ?? null;
  const now = ports.clock();
  await ports.erasures.insertIfAbsent({
    _id: uuid,
    business_id: scope.businessId,
    conversation_id: conversationId,
    state: 'erasing',
    due_at: now,
    event_sequence: null,
    requested_at: now,
    finished_at: null,
  });
  await ports.data.deleteContact(scope, uuid);
  return { contactId: uuid, conversationId };
}

/** A request of an erasure already recorded: answered as the first was while it runs, CONTACT_NOT_FOUND once erased. */
function repeatOf(erasure: ContactErasureEntity, uuid: string): ErasureRequested {
  if (erasure.state === 'erased') throw new CatalogError('CONTACT_NOT_FOUND', `No contact ${uuid} in this business.`);
  return { contactId: uuid, conversationId: erasure.conversation_id };
}

/**
 * One pass of an erasure, if this caller claims it: deletes the contact, its conversation (taking
 * the sequence contact.erased will carry, after every event of it) and everything of the
 * conversation. The first pass leaves the erasure settling; the settling pass, a little later,
 * deletes again what writers already in flight at the first one still wrote, then records
 * contact.erased. Answers the state it left, or null when another caller holds the pass.
 */
export async function runErasurePass(ports: ContactErasurePorts, erasure: ContactErasureEntity): Promise<ContactErasureEntity['state'] | null> {
  const scope = businessScope(erasure.business_id);
  if (erasure.state === 'erased') return 'erased';
  const claimed = await ports.erasures.claim(scope, erasure, new Date(ports.clock().getTime() + ports.timing.leaseMs));
  if (!claimed) return null;
  const contactId = claimed.erasure._id;
  const erasedEventId = contactErasedEventId(scope.businessId, contactId);
  await ports.data.deleteContact(scope, contactId);
  let sequence = claimed.erasure.event_sequence;
  const conversationId = claimed.erasure.conversation_id;
  if (conversationId) {
    const taken = await ports.data.deleteConversation(scope, conversationId);
    if (taken !== null && sequence === null) sequence = await ports.erasures.keepEventSequence(scope, contactId, taken);
    await eraseConversationData(ports, scope, conversationId, erasedEventId);
  }
  if (claimed.erasure.state === 'erasing') {
    return (await ports.erasures.settle(scope, claimed, new Date(ports.clock().getTime() + ports.timing.settleMs))) ? 'settling' : null;
  }
  return (await finish(ports, scope, claimed, erasedEventId, sequence)) ? 'erased' : null;
}

/** Runs the passes that are due, of every business, at most `limit`: answers how many ran. */
export async function runDueErasures(ports: ContactErasurePorts, limit: number): Promise<number> {
  const due = await ports.erasures.findDueAcrossBusinesses(ports.clock(), limit);
  let ran = 0;
  for (const erasure of due) if ((await runErasurePass(ports, erasure)) !== null) ran += 1;
  return ran;
}

async function eraseConversationData(ports: ContactErasurePorts, scope: BusinessScope, conversationId: string, keepEventId: string): Promise<void> {
  const files = await ports.data.customerMediaFiles(scope, conversationId);
  for (const file of files) await ports.mediaContent.delete(file.content_id);
  await ports.data.deleteFiles(
    scope,
    files.map((file) => file._id),
  );
  await ports.data.deleteConversationRecords(scope, conversationId);
  await ports.data.deleteEvents(scope, conversationId, keepEventId);
}

async function finish(ports: ContactErasurePorts, scope: BusinessScope, claimed: ClaimedErasure, erasedEventId: string, sequence: number | null): Promise<boolean> {
  const now = ports.clock();
  const contactId = claimed.erasure._id;
  const entry = outboxEntry('contact.erased', claimed.erasure.conversation_id, { contact: { uuid: contactId } }, SYSTEM_AUTHOR, now, erasedEventId);
  if (!(await ports.erasures.finish(scope, claimed, now, entry))) return false;
  const recorded: OutboxEntry | SequencedEntry = sequence === null ? entry : { ...entry, sequence };
  await ports.events.recordQuietly('contact_erasures', scope, contactId, [recorded]);
  return true;
}
