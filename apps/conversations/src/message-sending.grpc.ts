import type { ConsentRecorder } from '@cmsg/conversations-domain';
import { cloudApiErrorOf } from '@cmsg/chat-platform';
import { type BroadcastSendSources, type MessageAuthor, type SendMessageDependencies, sendMessage, sendMessageCommand } from '@cmsg/conversations-domain';
import { businessScope } from '@cmsg/dal';
import { CatalogError, isCatalogError } from '@cmsg/errors';
import { protoSendContentToDomain } from '@cmsg/message-codec';
import type { Logger } from '@cmsg/platform';
import type { AsyncUnaryImplementation } from '@cmsg/platform/grpc';
import type { Caller, ConversationActionsServiceServer, MessageAuthor as ProtoMessageAuthor } from '@cmsg/proto';

export type MessageSendingHandlers = Pick<AsyncUnaryImplementation<ConversationActionsServiceServer>, 'sendMessage'>;

export interface MessageSendingDependencies extends SendMessageDependencies {
  /** A send refused with 131050 records the contact's marketing opt-out (CONTRACT 10.2). */
  recordConsent: ConsentRecorder;
  /** The template and channel reads of broadcast sends, shared by the broadcast's recipients (broadcastSendSources). */
  broadcastSources: BroadcastSendSources;
  logger: Logger;
}

/** Transport adapter for sends (text, file, quick reply, template): proto request -> command -> use case. */
export function messageSendingHandlers(dependencies: MessageSendingDependencies): MessageSendingHandlers {
  const { logger, broadcastSources, ...useCaseDependencies } = dependencies;
  const broadcastDependencies: SendMessageDependencies = { ...useCaseDependencies, ...broadcastSources };
  return {
    sendMessage: async (request) => {
      const command = sendMessageCommand({
        conversation: required(request.conversation, 'conversation'),
        operationId: request.operation_id,
        author: authorOf(request.author, request.caller),
        content: protoSendContentToDomain(request),
        ...(request.broadcast ? { broadcast: { uuid: request.broadcast.uuid, maxPerSecond: request.broadcast.max_per_second } } : {}),
      });
      try {
        return await sendMessage(scopeOf(request.caller), command, command.broadcast ? broadcastDependencies : useCaseDependencies);
      } catch (error) {
        // Fresh provider failures carry their cause; a repeat answering a stored failure does not.
        if (isCatalogError(error) && error.providerCode !== undefined && error.cause !== undefined) {
          logger.warn({ err: error.cause ?? error, code: error.code, operation_id: command.operationId, provider_error: cloudApiErrorOf(error) }, 'send to the chat channel failed');
        }
        throw error;
      }
    },
  };
}

function scopeOf(caller: Caller | undefined) {
  if (!caller?.business_id) throw new CatalogError('INVALID_REQUEST', 'caller.business_id is required.');
  return businessScope(caller.business_id);
}

function required<Value>(value: Value | undefined, field: string): Value {
  if (value === undefined) throw new CatalogError('INVALID_REQUEST', `${field} is required.`);
  return value;
}

/** Without an explicit author the send is the calling token's (the individual endpoints). */
function authorOf(author: ProtoMessageAuthor | undefined, caller: Caller | undefined): MessageAuthor {
  if (author) return { type: author.type as MessageAuthor['type'], uuid: author.uuid ?? null };
  return caller?.token_uuid ? { type: 'api_token', uuid: caller.token_uuid } : { type: 'system', uuid: null };
}
