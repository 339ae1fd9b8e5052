import { CONVERSATION_REFERENCE_ERROR_CODES } from './conversation-reference.schema';
import { sendTemplateEndpoint } from './messages.endpoints';
import { type PublicEndpoint, definePublicEndpoint } from './public-endpoint';
import { StartConversationRequestSchema, StartConversationResponseSchema } from './start-conversation.schema';

const referenceCodes: readonly string[] = CONVERSATION_REFERENCE_ERROR_CODES;

export const startConversationEndpoint = definePublicEndpoint({
  operationId: 'startConversation',
  method: 'post',
  path: '/conversations',
  summary: 'Start a conversation with a template: upsert the contact, send, then assign and note',
  description:
    'The AI employee, mailbox and tags are checked first: an unknown one answers its 404 (or 409) and nothing is written or sent. Then the contact is upserted as POST /contacts does (or the `{uuid}` one is used: 404 CONTACT_NOT_FOUND for an unknown one or another business\'s), the template is sent as POST /conversation/messages/template sends it (consent, template status and variables, the provider\'s outcomes); a refused send answers its error and applies nothing after it (the contact stays upserted). Then the AI employee (not run), the mailbox, the tags and the note are applied, each on the timeline and in the events as if asked alone. With an `Idempotency-Key` a retry answers the first answer; the send is made once per key even after a crash.',
  tag: 'Conversations',
  successStatus: 201,
  successDescription: 'The template was sent (or simulated) and everything asked was applied.',
  errorCodes: [
    'CONTACT_NOT_FOUND',
    'CONTACT_IDENTIFIER_CONFLICT',
    'AI_EMPLOYEE_NOT_FOUND',
    'MAILBOX_NOT_FOUND',
    'TAG_NOT_FOUND',
    ...sendTemplateEndpoint.errorCodes.filter((code) => !referenceCodes.includes(code)),
    'CHANNEL_NOT_FOUND',
  ],
  schemas: { body: StartConversationRequestSchema, response: StartConversationResponseSchema },
  requestExample: {
    body: {
      contact: { phone: '+5215512345678', first_name: 'Ana', external_id: 'crm-000123' },
      template: { name: 'order_update', language: 'es_MX' },
      variables: [
        { index: 1, value: 'Ana' },
        { index: 2, value: '#1042' },
      ],
      mailbox: '6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b',
      tags: ['2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d'],
      note: 'Order #1042 shipped; customer asked for updates here.',
    },
  },
});

export const START_CONVERSATION_ENDPOINTS: readonly PublicEndpoint[] = [startConversationEndpoint];
