import { cloudApiErrorOf } from '@cmsg/chat-platform';
import {
  type MessageAuthor,
  type MessageContentInput,
  type MessageSender,
  type ObjectReference,
  type OutboundFiles,
  type TemplateSendInput,
  sendMessage,
  sendMessageCommand,
} from '@cmsg/conversations-domain';
import { businessScope } from '@cmsg/dal';
import { CatalogError, isCatalogError } from '@cmsg/errors';
import type { AsyncUnaryImplementation, Logger } from '@cmsg/platform';
import type {
  Caller,
  ConversationActionsServiceServer,
  MessageAuthor as ProtoMessageAuthor,
  ObjectRef,
  SendMessageRequest,
  TemplateContent,
} from '@cmsg/proto';

export type MessageSendingHandlers = Pick<AsyncUnaryImplementation<ConversationActionsServiceServer>, 'sendMessage'>;

export interface MessageSendingDependencies {
  sender: MessageSender;
  files: OutboundFiles;
  /** The provider call's timeout plus a margin: a send `sending` for longer was cut off by a crash. */
  inFlightLeaseMs: number;
  logger: Logger;
}

/** Transport adapter for sends (text, file, quick reply, template): proto request -> command -> use case. */
export function messageSendingHandlers(dependencies: MessageSendingDependencies): MessageSendingHandlers {
  const { logger, ...useCaseDependencies } = dependencies;
  return {
    sendMessage: async (request) => {
      const command = sendMessageCommand({
        conversation: required(request.conversation, 'conversation'),
        operationId: request.operation_id,
        author: authorOf(request.author, request.caller),
        content: contentOf(request),
      });
      try {
        return await sendMessage(scopeOf(request.caller), command, useCaseDependencies);
      } catch (error) {
        // Fresh provider failures carry their cause; a repeat answering a stored failure does not.
        if (isCatalogError(error) && error.code === 'SEND_FAILED' && error.cause !== undefined) {
          logger.warn({ err: error.cause ?? error, operation_id: command.operationId, provider_error: cloudApiErrorOf(error) }, 'send to the chat channel failed');
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

function contentOf(request: SendMessageRequest): MessageContentInput {
  const present = (['text', 'file', 'quick_reply', 'template', 'quick_reply_or_template'] as const).filter((field) => request[field] !== undefined);
  if (present.length !== 1) throw new CatalogError('INVALID_REQUEST', 'Exactly one of text, file, quick_reply, template or quick_reply_or_template is required.');
  if (request.text) return { kind: 'text', text: request.text.body };
  if (request.file) {
    const { file_uuid, caption, transcription } = request.file;
    return { kind: 'file', file_uuid, ...(caption !== undefined ? { caption } : {}), ...(transcription !== undefined ? { transcription } : {}) };
  }
  if (request.quick_reply) return { kind: 'quick_reply', quick_reply: objectReferenceOf(request.quick_reply) };
  if (request.template) return { kind: 'template', template: templateInputOf(request.template) };
  const fallback = required(request.quick_reply_or_template, 'quick_reply_or_template');
  return {
    kind: 'quick_reply_or_template',
    quick_reply: objectReferenceOf(required(fallback.quick_reply, 'quick_reply_or_template.quick_reply')),
    template: templateInputOf(required(fallback.template, 'quick_reply_or_template.template')),
  };
}

function objectReferenceOf(reference: ObjectRef): ObjectReference {
  return { ...(reference.uuid ? { uuid: reference.uuid } : {}), ...(reference.name ? { name: reference.name } : {}) };
}

function templateInputOf(content: TemplateContent): TemplateSendInput {
  const reference = required(content.template, 'template.template');
  const header = content.header;
  return {
    template: {
      ...(reference.uuid ? { uuid: reference.uuid } : {}),
      ...(reference.name ? { name: reference.name } : {}),
      ...(reference.language ? { language: reference.language } : {}),
    },
    variables: content.variables.map(({ index, value }) => ({ index, value })),
    ...(header
      ? {
          header:
            header.type === 'text'
              ? { type: 'text', value: header.value ?? '', ...(header.transcription !== undefined ? { transcription: header.transcription } : {}) }
              : {
                  // Any other type string is refused by the command with INVALID_REQUEST.
                  type: header.type as 'image' | 'video' | 'document',
                  file_uuid: header.file_uuid ?? '',
                  ...(header.transcription !== undefined ? { transcription: header.transcription } : {}),
                },
        }
      : {}),
    button_parameters: content.button_parameters.map(({ index, sub_type, value }) => ({ index, sub_type: sub_type as 'url', value })),
  };
}
