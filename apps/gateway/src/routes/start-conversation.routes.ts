import { startConversationEndpoint } from '@cmsg/api-schemas';
import { publicTemplateToProto } from '@cmsg/message-codec';
import { toSentMessage } from '../mappers/sent-message.mapper';
import { requiredField } from '../mappers/upstream-fields';
import { type BusinessRoute, businessRoute } from './business-route';
import { operationIdFor } from './operation-id';

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
        operation_id: operationIdFor('start', caller, idempotencyKey),
      }),
    toResponse: (response) => ({
      conversation: { uuid: requiredField(response.conversation, 'conversation').uuid },
      contact: requiredField(response.contact, 'contact'),
      message: toSentMessage(requiredField(response.message, 'message')),
    }),
  }),
];
