import type { BusinessScope } from '@cmsg/dal';
import type { ActionActor } from '../action-support/action-actor';
import type { ContactPorts } from '../contacts/contact-ports';
import type { MessageAuthor, TemplateSendInput } from '../messaging/send-message.command';

/** The message a start sent, as SendMessage answers it (a repeat answers what the first attempt stored). */
export interface StartedMessage {
  uuid: string;
  status: string;
  created_at: string;
}

/**
 * What startConversation needs, built once in the app's composition root: the contact ports of
 * POST /contacts and the existing use cases (SendMessage, the assignments, AddNote) bound to their
 * dependencies, so a start records exactly what each of those records on its own.
 */
export interface StartConversationPorts {
  contacts: ContactPorts;
  /** Each throws the catalog's error for a reference the business cannot use (404 or 409), changing nothing. */
  references: {
    aiEmployee(scope: BusinessScope, uuid: string): Promise<void>;
    mailbox(scope: BusinessScope, uuid: string): Promise<void>;
    tag(scope: BusinessScope, uuid: string): Promise<void>;
  };
  sendTemplate(scope: BusinessScope, send: { conversationId: string; operationId: string; author: MessageAuthor; template: TemplateSendInput }): Promise<StartedMessage>;
  /** Applied after the send with the `noop` policy: a retry finds them applied and changes nothing. */
  assignAiEmployee(scope: BusinessScope, conversationId: string, aiEmployeeUuid: string, actor: ActionActor): Promise<void>;
  assignMailbox(scope: BusinessScope, conversationId: string, mailboxUuid: string, actor: ActionActor): Promise<void>;
  addTags(scope: BusinessScope, conversationId: string, tagUuids: readonly string[], actor: ActionActor): Promise<void>;
  /** With an operation id a repeat answers the note its first run added. */
  addNote(scope: BusinessScope, conversationId: string, note: string, tokenUuid: string, operationId: string): Promise<void>;
}
