import { randomUUID } from 'node:crypto';
import { CatalogError } from '@cmsg/errors';
import type { OutboxRecorder } from '@cmsg/events';
import { appendNote } from '../timeline/add-note.usecase';
import { assignAiEmployee } from '../ai-assignment/assign-ai-employee.usecase';
import { findAiEmployee } from '../ai-assignment/resolve-ai-employee.usecase';
import { resolveObjectRef } from '../action-support/resolve-object-ref';
import type { ContactPorts } from '../contacts/contact-ports';
import { assignMailbox } from '../mailbox/assign-mailbox.usecase';
import { resolveMailboxTarget } from '../mailbox/resolve-mailbox-target';
import { sendMessageCommand } from '../messaging/send-message.command';
import { type SendMessageDependencies, sendMessage } from '../messaging/send-message.usecase';
import { repositories } from '../repositories';
import { changeTags } from '../tags/change-tags.usecase';
import { operationNoteId } from '../conversation/operation-ids';
import type { StartConversationPorts } from './start-conversation-ports';

/**
 * The ports of startConversation over the use cases each step already has: the same reference
 * errors as the individual endpoints, SendMessage's exactly-once send, and the assignments with the
 * `noop` policy, so a retried start (or a conversation already so) changes nothing twice.
 */
export function startConversationBindings(contacts: ContactPorts, outbox: OutboxRecorder, send: SendMessageDependencies): StartConversationPorts {
  const legacyMailboxes = { mailboxes: repositories.mailboxes, categories: repositories.mailboxCategories };
  return {
    contacts,
    references: {
      aiEmployee: async (scope, uuid) => void (await findAiEmployee(repositories.aiEmployees, scope, { uuid })),
      mailbox: async (scope, uuid) => void (await resolveMailboxTarget(legacyMailboxes, scope, { mailbox: { uuid } })),
      tag: async (scope, uuid) =>
        void (await resolveObjectRef(repositories.tags, scope, { uuid }, { notFound: 'TAG_NOT_FOUND', ambiguous: 'TAG_AMBIGUOUS', otherBusiness: 'TAG_BUSINESS_MISMATCH' }, 'tag')),
    },
    sendTemplate: async (scope, { conversationId, operationId, author, template }) => {
      const command = sendMessageCommand({ conversation: { uuid: conversationId }, operationId, author, content: { kind: 'template', template } });
      const { message } = await sendMessage(scope, command, send);
      if (!message) throw new CatalogError('UPDATE_FAILED', 'The template send answered no message; retry.');
      return message;
    },
    // A pending scheduled message follows the new owner: refusing after the template went out could not be undone.
    assignAiEmployee: async (scope, conversationId, uuid, actor) =>
      void (await assignAiEmployee(scope, outbox, { reference: { uuid: conversationId }, aiEmployee: { uuid }, scheduledMessageAction: 'reassign', policy: 'noop', actor })),
    assignMailbox: async (scope, conversationId, uuid, actor) =>
      void (await assignMailbox({ lookup: repositories, mailboxes: legacyMailboxes, conversationMailbox: repositories.conversations, outbox, clock: () => new Date() }, scope, { reference: { uuid: conversationId }, mailbox: { uuid }, policy: 'noop', actor })),
    addTags: async (scope, conversationId, uuids, actor) =>
      void (await changeTags({ lookup: repositories, tags: repositories.tags, conversationTags: repositories.conversations, outbox, clock: () => new Date() }, scope, { reference: { uuid: conversationId }, tags: uuids.map((uuid) => ({ uuid })), direction: 'assign', policy: 'noop', actor })),
    addNote: async (scope, conversationId, note, tokenUuid, operationId) =>
      void (await appendNote({ notes: repositories.timelineEvents, outbox, clock: () => new Date(), ids: { random: randomUUID } }, scope, { tokenUuid }, conversationId, note, operationNoteId(scope.businessId, operationId))),
  };
}
