import { CatalogError } from '@cmsg/errors';
import type { BusinessScope, ConversationChange } from '@cmsg/dal';
import { type NamedObject, type OutboxRecorder, authorOf, mailboxParty, outboxEntry, withConversationChange } from '@cmsg/events';
import type { AssignMailboxResponse } from '@cmsg/proto';
import type { ActionActor } from '../action-support/action-actor';
import { type AlreadyInStatePolicy, whenAlreadyInState } from '../action-support/already-in-state';
import type { ObjectRef } from '../action-support/resolve-object-ref';
import { MAX_CHANGE_ROUNDS } from '../conversation/conversation-change';
import { type ConversationLookup, type ConversationReference, type StoredConversation, reloadConversation, resolveConversation } from '../conversation/conversation-resolver';
import { type MailboxDirectory, resolveMailboxTarget } from './resolve-mailbox-target';

export interface AssignMailboxCommand {
  reference: ConversationReference;
  mailbox?: ObjectRef;
  category?: ObjectRef;
  policy: AlreadyInStatePolicy;
  actor: ActionActor;
}

/** The mailbox update of a conversation (ConversationRepository): null when the mailbox it replaces is no longer there. */
export interface ConversationMailboxWriter {
  changeMailbox(scope: BusinessScope, id: string, change: ConversationChange<string | null>): Promise<StoredConversation | null>;
}

export interface AssignMailboxPorts {
  lookup: ConversationLookup;
  mailboxes: MailboxDirectory;
  conversationMailbox: ConversationMailboxWriter;
  outbox: OutboxRecorder;
  clock: () => Date;
}

/**
 * AssignMailbox (SPEC 4.3 assign_mailbox, CONTRACT 5 /conversation/mailbox): one update of the
 * conversation whose filter holds the mailbox it replaces, with its conversation.mailbox_changed
 * entry. Of concurrent moves to
 * the same mailbox one makes the change; the others find it there (409 or no-op by policy).
 */
export async function assignMailbox(ports: AssignMailboxPorts, scope: BusinessScope, command: AssignMailboxCommand): Promise<AssignMailboxResponse> {
  let conversation = await resolveConversation(ports.lookup, scope, command.reference);
  const mailbox = await resolveMailboxTarget(ports.mailboxes, scope, command);
  const response = (noop: boolean): AssignMailboxResponse => ({ conversation: { uuid: conversation._id }, mailbox: { uuid: mailbox._id, name: mailbox.name }, noop });

  for (let round = 0; round < MAX_CHANGE_ROUNDS; round += 1) {
    const from = conversation.mailbox_id ?? null;
    if (from === mailbox._id) {
      whenAlreadyInState(command.policy, 'MAILBOX_ALREADY_ASSIGNED', `The conversation is already in the mailbox '${mailbox.name}'.`);
      return response(true);
    }
    const now = ports.clock();
    const data = { from: mailboxParty(await namedObject(ports.mailboxes, scope, from)), to: mailboxParty(mailbox) };
    const event = outboxEntry('conversation.mailbox_changed', conversation._id, data, authorOf(command.actor), now);
    const changed = await ports.conversationMailbox.changeMailbox(scope, conversation._id, { from, to: mailbox._id, event, now });
    if (changed) {
      await ports.outbox.recordQuietly('conversations', scope, changed._id, [withConversationChange(event, changed)]);
      return response(false);
    }
    conversation = await reloadConversation(ports.lookup.conversations, scope, conversation._id);
  }
  throw new CatalogError('UPDATE_FAILED', 'The conversation mailbox kept changing during the update; retry.');
}

/** The mailbox the conversation leaves, named as it is now (a removed one keeps its uuid, name null). */
async function namedObject(directory: MailboxDirectory, scope: BusinessScope, mailboxId: string | null): Promise<NamedObject | null> {
  if (!mailboxId) return null;
  return { _id: mailboxId, name: (await directory.mailboxes.findById(scope, mailboxId))?.name ?? null };
}
