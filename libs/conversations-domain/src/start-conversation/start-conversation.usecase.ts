import type { BusinessScope } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import { existingContact } from '../contacts/get-contact.usecase';
import { type UpsertContactCommand, upsertContact } from '../contacts/upsert-contact.usecase';
import { MAX_OPERATION_ID_LENGTH, type TemplateSendInput } from '../messaging/send-message.command';
import type { StartConversationPorts, StartedMessage } from './start-conversation-ports';

export type StartContactInput = { uuid: string } | Pick<UpsertContactCommand, 'phone' | 'channel' | 'first_name' | 'last_name' | 'external_id'> & { phone: string };

export interface StartConversationCommand {
  contact: StartContactInput;
  template: TemplateSendInput;
  aiEmployee?: string;
  mailbox?: string;
  tags: readonly string[];
  note?: string;
  tokenUuid: string;
  /**
   * One id per request (the gateway derives it from the token and the Idempotency-Key): the send
   * and the note reuse it, so a retry after a crash never sends or notes twice.
   */
  operationId: string;
}

export interface StartConversationResult {
  conversation: { uuid: string };
  contact: { uuid: string; created: boolean };
  message: StartedMessage;
}

/** Room for the suffixes this use case adds to the operation id of each step. */
const STEP_SUFFIX_LENGTH = 8;

/**
 * POST /conversations (CONTRACT 10.3). Order, so that a refusal applies nothing after it:
 * 1. every reference (AI employee, mailbox, tags) is resolved: an unknown one refuses the start
 *    before anything is written or sent, since an assignment failing after the template went out
 *    could not be undone;
 * 2. the contact is upserted as POST /contacts does, or the {uuid} one is found (CONTACT_NOT_FOUND);
 * 3. the template is sent through SendMessage (consent, template status and variables, the
 *    provider's outcomes); a refusal leaves the contact upserted, nothing else;
 * 4. the AI employee (without a run), the mailbox, the tags and the note are applied, each by its
 *    own use case, so each is on the timeline and in the events as if asked alone.
 */
export async function startConversation(ports: StartConversationPorts, scope: BusinessScope, command: StartConversationCommand): Promise<StartConversationResult> {
  const operationId = command.operationId.trim();
  if (!operationId || operationId.length > MAX_OPERATION_ID_LENGTH - STEP_SUFFIX_LENGTH) {
    throw new CatalogError('INVALID_REQUEST', `operation_id: 1 to ${MAX_OPERATION_ID_LENGTH - STEP_SUFFIX_LENGTH} characters.`);
  }
  await resolveReferences(ports, scope, command);
  const contact = await contactOf(ports, scope, command);
  const actor = { type: 'api_token', uuid: command.tokenUuid || null } as const;
  const message = await ports.sendTemplate(scope, {
    conversationId: contact.conversationId,
    operationId: `${operationId}:send`,
    author: actor,
    template: command.template,
  });
  if (command.aiEmployee !== undefined) await ports.assignAiEmployee(scope, contact.conversationId, command.aiEmployee, actor);
  if (command.mailbox !== undefined) await ports.assignMailbox(scope, contact.conversationId, command.mailbox, actor);
  if (command.tags.length > 0) await ports.addTags(scope, contact.conversationId, command.tags, actor);
  if (command.note !== undefined) await ports.addNote(scope, contact.conversationId, command.note, command.tokenUuid, `${operationId}:note`);
  return { conversation: { uuid: contact.conversationId }, contact: { uuid: contact.contactId, created: contact.created }, message };
}

async function resolveReferences(ports: StartConversationPorts, scope: BusinessScope, command: StartConversationCommand): Promise<void> {
  if (command.aiEmployee !== undefined) await ports.references.aiEmployee(scope, command.aiEmployee);
  if (command.mailbox !== undefined) await ports.references.mailbox(scope, command.mailbox);
  for (const tag of new Set(command.tags)) await ports.references.tag(scope, tag);
}

async function contactOf(ports: StartConversationPorts, scope: BusinessScope, command: StartConversationCommand): Promise<{ contactId: string; conversationId: string; created: boolean }> {
  const contacts = ports.contacts;
  if ('uuid' in command.contact) {
    const contact = await existingContact(contacts, scope, command.contact.uuid);
    const conversationId = (await contacts.conversations.idsByContactIds(scope, [contact._id])).get(contact._id);
    if (conversationId) return { contactId: contact._id, conversationId, created: false };
    // A contact whose conversation a crash kept from being created gets it now, as an upsert would.
    const [channel] = await contacts.channels.byIds(scope, [contact.channel_id]);
    if (!channel) throw new CatalogError('CHANNEL_NOT_FOUND', `The channel of contact ${contact._id} no longer exists.`);
    return { contactId: contact._id, conversationId: await contacts.conversations.ensureFor(scope, contact, channel, contacts.clock()), created: false };
  }
  const { phone, channel, first_name, last_name, external_id } = command.contact;
  const upserted = await upsertContact(contacts, scope, { tokenUuid: command.tokenUuid }, { phone, channel, first_name, last_name, external_id });
  const contactId = upserted.contact?.uuid;
  const conversationId = upserted.contact?.conversation_uuid;
  if (!contactId || !conversationId) throw new CatalogError('UPDATE_FAILED', 'The contact was written without its conversation; retry.');
  return { contactId, conversationId, created: upserted.created };
}
