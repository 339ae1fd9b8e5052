import { randomUUID } from 'node:crypto';
import { type TemplateHeader, sendQuickReplyEndpoint, sendTemplateEndpoint, sendTextMessageEndpoint } from '@cmsg/api-schemas';
import type { Caller, TemplateHeader as ProtoTemplateHeader } from '@cmsg/proto';
import { toSendMessageResponse, toSendQuickReplyResponse } from '../mappers/sent-message.mapper';
import { type BusinessRoute, businessRoute } from './business-route';

/**
 * Every request is one send: a fresh operation id per request (the Idempotency-Key layer already
 * replays a client's retry without reaching the service), the token as the author.
 */
function sendBase(caller: Caller) {
  return { caller, operation_id: randomUUID(), author: { type: 'api_token', uuid: caller.token_uuid } };
}

function protoHeader(header: TemplateHeader | undefined): ProtoTemplateHeader | undefined {
  if (!header) return undefined;
  return header.type === 'text'
    ? { type: 'text', value: header.value }
    : { type: header.type, file_uuid: header.file_uuid, ...(header.transcription !== undefined ? { transcription: header.transcription } : {}) };
}

export const messageRoutes: readonly BusinessRoute[] = [
  businessRoute(sendTextMessageEndpoint, {
    call: ({ conversationActions }, { caller, body }) =>
      conversationActions.sendMessage({
        ...sendBase(caller),
        conversation: body.conversation,
        ...(body.file_uuid !== undefined
          ? { file: { file_uuid: body.file_uuid, caption: body.text, ...(body.transcription !== undefined ? { transcription: body.transcription } : {}) } }
          : { text: { body: body.text } }),
      }),
    toResponse: toSendMessageResponse,
  }),
  businessRoute(sendQuickReplyEndpoint, {
    call: ({ conversationActions }, { caller, body }) =>
      conversationActions.sendMessage({ ...sendBase(caller), conversation: body.conversation, quick_reply: body.quick_reply }),
    toResponse: toSendQuickReplyResponse,
  }),
  businessRoute(sendTemplateEndpoint, {
    call: ({ conversationActions }, { caller, body }) =>
      conversationActions.sendMessage({
        ...sendBase(caller),
        conversation: body.conversation,
        template: { template: body.template, variables: body.variables, header: protoHeader(body.header), button_parameters: body.button_parameters },
      }),
    toResponse: toSendMessageResponse,
  }),
];
