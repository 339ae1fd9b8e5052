import type { BroadcastRecipientEntity, ClaimedBroadcast } from '@cmsg/dal';
import type { AudiencePorts } from '../core/audience-ports';
import type { BroadcastStore } from '../core/broadcast-ports';
import { parseVariableTemplates } from '../variables';
import { classifyContact, skippedRow } from './classify-contact';
import { recipientId } from '../core/named-ids';
import { businessScopeOf } from '../core/scope';
import type { FreezeBatch } from './freeze-batch';
import { readFileBatch } from './freeze-file-batch';

export const FREEZE_BATCH_SIZE = 500;

export interface FreezePorts {
  store: BroadcastStore;
  audience: AudiencePorts;
}

export type FreezeProgress = 'more' | 'done' | 'lease_lost';

/**
 * Freezes the next batch of the audience into recipients and moves the checkpoint past it
 * (docs/broadcasts.md). A crash between the two freezes the batch again from the same checkpoint:
 * the same seqs, which the unique {broadcast_id, seq} index drops.
 */
export async function freezeNextBatch(ports: FreezePorts, claimed: ClaimedBroadcast, leaseUntil: Date): Promise<FreezeProgress> {
  const { broadcast } = claimed;
  const scope = businessScopeOf(broadcast);
  const batch = await readBatch(ports.audience, claimed);
  if (batch.recipients.length === 0) return 'done';
  const recipients: BroadcastRecipientEntity[] = batch.recipients.map((recipient, index) => ({
    ...recipient,
    _id: recipientId(broadcast._id, broadcast.freeze.next_seq + index),
    business_id: broadcast.business_id,
    broadcast_id: broadcast._id,
    seq: broadcast.freeze.next_seq + index,
  }));
  // A step cut off after its insert and before its checkpoint left recipients past the checkpoint.
  await ports.store.recipients.discardFrom(scope, broadcast._id, broadcast.freeze.next_seq);
  const { duplicates } = await ports.store.recipients.insertBatch(recipients);
  await ports.store.recipients.insertSkipped(duplicates.map((duplicate) => ({ ...duplicate, ...skippedRow('duplicate', `dup:${duplicate.seq}`, duplicate.row, duplicate.phone), contact_id: duplicate.contact_id })));
  const saved = await ports.store.broadcasts.saveCheckpoint(scope, claimed, batch.checkpoint(broadcast.freeze.next_seq + recipients.length), leaseUntil);
  if (!saved) return 'lease_lost';
  claimed.broadcast = { ...broadcast, freeze: batch.checkpoint(broadcast.freeze.next_seq + recipients.length) };
  return 'more';
}

async function readBatch(audience: AudiencePorts, claimed: ClaimedBroadcast): Promise<FreezeBatch> {
  const { broadcast } = claimed;
  const scope = businessScopeOf(broadcast);
  const variables = parseVariableTemplates(broadcast.variables);
  const source = broadcast.audience;
  if (source.kind === 'filter') {
    const contacts = await audience.contactsMatching(scope, source.filter, broadcast.channel_id, broadcast.freeze.after_contact_id, FREEZE_BATCH_SIZE);
    return {
      recipients: contacts.map((contact) => classifyContact(broadcast, variables, contact)),
      checkpoint: (nextSeq) => ({ ...broadcast.freeze, after_contact_id: contacts[contacts.length - 1]?.id ?? broadcast.freeze.after_contact_id, rows: broadcast.freeze.rows + contacts.length, next_seq: nextSeq }),
    };
  }
  if (source.kind === 'contacts') {
    const ids = source.contact_ids.slice(broadcast.freeze.rows, broadcast.freeze.rows + FREEZE_BATCH_SIZE);
    const found = new Map((await audience.contactsByIds(scope, ids)).map((contact) => [contact.id, contact]));
    return {
      recipients: ids.map((id) => {
        const contact = found.get(id);
        // Erased since the broadcast was created: nothing to send to.
        return contact && contact.channel_id === broadcast.channel_id ? classifyContact(broadcast, variables, contact) : skippedRow('invalid_row', id, null, null);
      }),
      checkpoint: (nextSeq) => ({ ...broadcast.freeze, rows: broadcast.freeze.rows + ids.length, next_seq: nextSeq }),
    };
  }
  return readFileBatch(audience, claimed, source, variables);
}
