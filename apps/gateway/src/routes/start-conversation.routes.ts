import { createHash, randomUUID } from 'node:crypto';
import { startConversationEndpoint } from '@cmsg/api-schemas';
import { publicTemplateToProto } from '@cmsg/message-codec';
import type { Caller } from '@cmsg/proto';
import { toSentMessage } from '../mappers/sent-message.mapper';
import { requiredField } from '../mappers/upstream-fields';
import { type BusinessRoute, businessRoute } from './business-route';

/**
 * One operation per Idempotency-Key and token: a retry that reaches the service again (the first
 * attempt crashed before the gateway stored its answer) reuses the operation, so the template is
 * never sent twice. Hashed to keep it short whatever the key's length. Without a key, each request
 * is its own operation.
 */
export function startOperationId(caller: Caller, idempotencyKey: string | undefined): string {
  if (idempotencyKey === undefined) return `start:${randomUUID()}`;
  return `start:${createHash('sha256').update(`${caller.token_uuid}\n${idempotencyKey}`).digest('hex')}`;
}

export const startConversationRoutes: readonly BusinessRoute[] = [
  businessRoute(startConversationEndpoint, {
    call: ({ conversationActions }, { caller, body, idempotencyKey }) =>
      conversationActions.startConversation({
        caller,
        contact: 'uuid' in body.contact ? { uuid: body.contact.uuid } : { identity: body.contact },
        template: publicTemplateToProto(body.template, body),
        ai_employee: body.ai_employee,
        mailbox: body.mailbox,
        tags: body.tags ?? [],
        note: body.note,
        operation_id: startOperationId(caller, idempotencyKey),
      }),
    toResponse: (response) => ({
      conversation: { uuid: requiredField(response.conversation, 'conversation').uuid },
      contact: requiredField(response.contact, 'contact'),
      message: toSentMessage(requiredField(response.message, 'message')),
    }),
  }),
];
