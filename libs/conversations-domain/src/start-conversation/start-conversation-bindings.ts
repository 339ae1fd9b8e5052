import { CatalogError } from '@cmsg/errors';
import { appendNote, type NotePorts } from '../timeline/add-note.usecase';
import type { AiAssignmentPorts } from '../ai-assignment/ai-assignment-ports';
import { assignAiEmployee } from '../ai-assignment/assign-ai-employee.usecase';
import { findAiEmployee } from '../ai-assignment/resolve-ai-employee.usecase';
import { resolveObjectRef } from '../action-support/resolve-object-ref';
import type { ContactPorts } from '../contacts/contact-ports';
import { type AssignMailboxPorts, assignMailbox } from '../mailbox/assign-mailbox.usecase';
import { resolveMailboxTarget } from '../mailbox/resolve-mailbox-target';
import { sendMessageCommand } from '../messaging/send-message.command';
import { type SendMessageDependencies, sendMessage } from '../messaging/send-message.usecase';
import { type ChangeTagsPorts, changeTags } from '../tags/change-tags.usecase';
import { operationNoteId } from '../conversation/operation-ids';
import type { StartConversationPorts } from './start-conversation-ports';

/** The ports of the use cases a start goes through, as the app builds them for the individual endpoints. */
export interface StartConversationSteps {
  contacts: ContactPorts;
  send: SendMessageDependencies;
  aiAssignment: AiAssignmentPorts;
  mailboxes: AssignMailboxPorts;
  tags: ChangeTagsPorts;
  notes: NotePorts;
}

/**
 * The ports of startConversation over the use cases each step already has: the same reference
 * errors as the individual endpoints, SendMessage's exactly-once send, and the assignments with the
 * `noop` policy, so a retried start (or a conversation already so) changes nothing twice.
 */
export function startConversationBindings(steps: StartConversationSteps): StartConversationPorts {
  return {
    contacts: steps.contacts,
    references: {
      aiEmployee: async (scope, uuid) => void (await findAiEmployee(steps.aiAssignment.aiEmployees, scope, { uuid })),
      mailbox: async (scope, uuid) => void (await resolveMailboxTarget(steps.mailboxes.mailboxes, scope, { mailbox: { uuid } })),
      tag: async (scope, uuid) =>
        void (await resolveObjectRef(steps.tags.tags, scope, { uuid }, { notFound: 'TAG_NOT_FOUND', ambiguous: 'TAG_AMBIGUOUS', otherBusiness: 'TAG_BUSINESS_MISMATCH' }, 'tag')),
    },
    sendTemplate: async (scope, { conversationId, operationId, author, template }) => {
      const command = sendMessageCommand({ conversation: { uuid: conversationId }, operationId, author, content: { kind: 'template', template } });
      const { message } = await sendMessage(scope, command, steps.send);
      if (!message) throw new CatalogError('UPDATE_FAILED', 'The template send answered no message; retry.');
      return message;
    },
    // A pending scheduled message follows the new owner: refusing after the template went out could not be undone.
    assignAiEmployee: async (scope, conversationId, uuid, actor) =>
      void (await assignAiEmployee(steps.aiAssignment, scope, { reference: { uuid: conversationId }, aiEmployee: { uuid }, scheduledMessageAction: 'reassign', policy: 'noop', actor })),
    assignMailbox: async (scope, conversationId, uuid, actor) =>
      void (await assignMailbox(steps.mailboxes, scope, { reference: { uuid: conversationId }, mailbox: { uuid }, policy: 'noop', actor })),
    addTags: async (scope, conversationId, uuids, actor) =>
      void (await changeTags(steps.tags, scope, { reference: { uuid: conversationId }, tags: uuids.map((uuid) => ({ uuid })), direction: 'assign', policy: 'noop', actor })),
    addNote: async (scope, conversationId, note, tokenUuid, operationId) =>
      void (await appendNote(steps.notes, scope, { tokenUuid }, conversationId, note, operationNoteId(scope.businessId, operationId))),
  };
}
