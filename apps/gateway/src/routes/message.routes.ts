import { randomUUID } from 'node:crypto';
import { sendQuickReplyEndpoint, sendTemplateEndpoint, sendTextMessageEndpoint } from '@cmsg/api-schemas';
import { publicTemplateToProto, publicTextToProto } from '@cmsg/message-codec';
import type { Caller } from '@cmsg/proto';
import { toSendMessageResponse, toSendQuickReplyResponse } from '../mappers/sent-message.mapper';
import { type BusinessRoute, businessRoute } from './business-route';

/**
 * Every request is one send: a fresh operation id per request (the Idempotency-Key layer already
 * replays a client's retry without reaching the service), the token as the author.
 */
function sendBase(caller: Caller) {
  return { caller, operation_id: randomUUID(), author: { type: 'api_token', uuid: caller.token_uuid } };
}

export const messageRoutes: readonly BusinessRoute[] = [
  businessRoute(sendTextMessageEndpoint, {
    call: ({ conversationActions }, { caller, body }) =>
      conversationActions.sendMessage({ ...sendBase(caller), conversation: body.conversation, ...publicTextToProto(body) }),
    toResponse: toSendMessageResponse,
  }),
  businessRoute(sendQuickReplyEndpoint, {
    call: ({ conversationActions }, { caller, body }) =>
      conversationActions.sendMessage({ ...sendBase(caller), conversation: body.conversation, quick_reply: body.quick_reply }),
    toResponse: toSendQuickReplyResponse,
  }),
  businessRoute(sendTemplateEndpoint, {
    call: ({ conversationActions }, { caller, body }) =>
      conversationActions.sendMessage({ ...sendBase(caller), conversation: body.conversation, template: publicTemplateToProto(body.template, body) }),
    toResponse: toSendMessageResponse,
  }),
];
