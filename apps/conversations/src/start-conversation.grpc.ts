import { type StartConversationPorts, type StartContactInput, startConversation } from '@cmsg/conversations-domain';
import { businessScope } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import { protoTemplateToDomain } from '@cmsg/message-codec';
import type { AsyncUnaryImplementation } from '@cmsg/platform/grpc';
import type { Caller, ConversationActionsServiceServer, StartContact } from '@cmsg/proto';

export type StartConversationHandlers = Pick<AsyncUnaryImplementation<ConversationActionsServiceServer>, 'startConversation'>;

/** Transport adapter of POST /conversations (CONTRACT 10.3): proto request -> command -> use case. */
export function startConversationHandlers(ports: StartConversationPorts): StartConversationHandlers {
  return {
    startConversation: async (request) => {
      if (!request.template) throw new CatalogError('INVALID_REQUEST', 'template is required.');
      const result = await startConversation(ports, scopeOf(request.caller), {
        contact: contactOf(request.contact),
        template: protoTemplateToDomain(request.template),
        aiEmployee: request.ai_employee,
        mailbox: request.mailbox,
        tags: request.tags,
        note: request.note,
        tokenUuid: request.caller?.token_uuid ?? '',
        operationId: request.operation_id,
      });
      return { conversation: result.conversation, contact: result.contact, message: result.message };
    },
  };
}

function contactOf(contact: StartContact | undefined): StartContactInput {
  if (contact?.uuid) return { uuid: contact.uuid };
  if (contact?.identity?.phone) return { ...contact.identity, phone: contact.identity.phone };
  throw new CatalogError('INVALID_REQUEST', 'contact: uuid or phone is required.');
}

function scopeOf(caller: Caller | undefined) {
  if (!caller?.business_id) throw new CatalogError('INVALID_REQUEST', 'caller.business_id is required.');
  return businessScope(caller.business_id);
}
