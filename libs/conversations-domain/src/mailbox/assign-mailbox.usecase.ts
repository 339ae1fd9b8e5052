import { CatalogError } from '@cmsg/errors';
import { type BusinessScope, ConversationModel, scopedFilter } from '@cmsg/dal';
import type { AssignMailboxResponse } from '@cmsg/proto';
import { type AlreadyInStatePolicy, whenAlreadyInState } from '../action-support/already-in-state';
import type { ObjectRef } from '../action-support/resolve-object-ref';
import { type ConversationReference, resolveConversationReference, type StoredConversation } from '../resolve-conversation-reference';
import { resolveMailboxTarget } from './resolve-mailbox-target';

export interface AssignMailboxCommand {
  reference: ConversationReference;
  mailbox?: ObjectRef;
  category?: ObjectRef;
  policy: AlreadyInStatePolicy;
}

/** AssignMailbox (SPEC 4.3 assign_mailbox, CONTRACT 5 /conversation/mailbox). */
export async function assignMailbox(scope: BusinessScope, command: AssignMailboxCommand): Promise<AssignMailboxResponse> {
  const { conversation } = await resolveConversationReference(scope, command.reference);
  const mailbox = await resolveMailboxTarget(scope, command);
  const response = (noop: boolean): AssignMailboxResponse => ({ conversation: { uuid: conversation._id }, mailbox: { uuid: mailbox._id, name: mailbox.name }, noop });
  const alreadyThere = () => {
    whenAlreadyInState(command.policy, 'MAILBOX_ALREADY_ASSIGNED', `The conversation is already in the mailbox '${mailbox.name}'.`);
    return response(true);
  };
  if (conversation.mailbox_id === mailbox._id) return alreadyThere();

  // The guard only fails when a concurrent request moved it to this same mailbox first.
  const updated = await ConversationModel.findOneAndUpdate(
    scopedFilter(scope, { _id: conversation._id, mailbox_id: { $ne: mailbox._id } }),
    { $set: { mailbox_id: mailbox._id, updated_at: new Date() } },
    { new: true },
  ).lean<StoredConversation>();
  if (updated) return response(false);
  if (!(await ConversationModel.exists(scopedFilter(scope, { _id: conversation._id })))) throw new CatalogError('CONVERSATION_NOT_FOUND');
  return alreadyThere();
}
