import type { ErrorCode } from '@cmsg/errors';
import { CONVERSATION_REFERENCE_ERROR_CODES } from './conversation-reference.schema';
import {
  SendMessageResponseSchema,
  SendQuickReplyRequestSchema,
  SendQuickReplyResponseSchema,
  SendTemplateRequestSchema,
  SendTextMessageRequestSchema,
} from './messages.schema';
import { type PublicEndpoint, definePublicEndpoint } from './public-endpoint';

/** What any send can answer once its content is valid: the channel and the provider (its outcomes: CONTRACT 10.3). */
const DELIVERY_ERROR_CODES = [
  'CHANNEL_NOT_CONFIGURED',
  'BSUID_SEND_DISABLED',
  'PREPARE_FAILED',
  'SEND_FAILED',
  'WINDOW_CLOSED',
  'RECIPIENT_UNDELIVERABLE',
  'MARKETING_LIMIT_REACHED',
  'CONTACT_OPTED_OUT',
  'RECIPIENT_IN_EXPERIMENT',
] as const satisfies readonly ErrorCode[];

/** Payment markers in a message text (CONTRACT 7b). */
const PAYMENT_MARKER_ERROR_CODES = [
  'PAYMENT_MARKER_UNKNOWN',
  'PAYMENT_MARKER_DATA_UNAVAILABLE',
  'PAYMENT_NOT_FOUND',
  'PAYMENT_PROFILE_GENERATION_FAILED',
] as const satisfies readonly ErrorCode[];

const SENDS_DESCRIPTION =
  'Tester conversations never reach the channel provider: the message is recorded with status simulated. A provider failure is 502 SEND_FAILED, or the catalog code its provider code maps to (131047 WINDOW_CLOSED, 131026 RECIPIENT_UNDELIVERABLE, 131049 MARKETING_LIMIT_REACHED, 131050 CONTACT_OPTED_OUT, 130472 RECIPIENT_IN_EXPERIMENT), with the provider code as provider_code; the message is kept with status failed. Rate limits (130429, 131056) are retried before any answer.';

export const sendTextMessageEndpoint = definePublicEndpoint({
  operationId: 'sendTextMessage',
  method: 'post',
  path: '/conversation/messages/text',
  summary: 'Send a text message, or a file with the text as its caption',
  description: `Only while the 24-hour window is open (WINDOW_CLOSED otherwise). Payment markers such as [[payment.link]] in the text are replaced first. With file_uuid (a confirmed upload of module api_messages) the text is the caption, at most 1024 characters; an audio takes no caption, so its text follows as a second message. Media that cannot be transcribed needs transcription (TRANSCRIPTION_REQUIRED). Files cannot go to tester conversations. ${SENDS_DESCRIPTION}`,
  tag: 'Messages',
  successStatus: 201,
  successDescription: 'The message was sent (or simulated).',
  errorCodes: [
    ...CONVERSATION_REFERENCE_ERROR_CODES,
    'WINDOW_CLOSED',
    'TESTER_CONVERSATION_NOT_WRITABLE',
    'FILE_NOT_FOUND',
    'TRANSCRIPTION_REQUIRED',
    ...PAYMENT_MARKER_ERROR_CODES,
    ...DELIVERY_ERROR_CODES,
  ],
  schemas: { body: SendTextMessageRequestSchema, response: SendMessageResponseSchema },
  requestExample: { body: { conversation: { phone: '+52 1 55 1234 5678' }, text: 'Your order ships today.' } },
});

export const sendQuickReplyEndpoint = definePublicEndpoint({
  operationId: 'sendQuickReply',
  method: 'post',
  path: '/conversation/messages/quick-reply',
  summary: 'Send a quick reply: one text message per action, in order',
  description: `Only while the 24-hour window is open. Payment markers in the actions' texts are replaced; every action is checked before the first is sent. ${SENDS_DESCRIPTION}`,
  tag: 'Messages',
  successStatus: 201,
  successDescription: 'Every message of the quick reply was sent (or simulated).',
  errorCodes: [
    ...CONVERSATION_REFERENCE_ERROR_CODES,
    'WINDOW_CLOSED',
    'QUICK_REPLY_NOT_FOUND',
    'QUICK_REPLY_AMBIGUOUS',
    'QUICK_REPLY_EMPTY',
    ...PAYMENT_MARKER_ERROR_CODES,
    ...DELIVERY_ERROR_CODES,
  ],
  schemas: { body: SendQuickReplyRequestSchema, response: SendQuickReplyResponseSchema },
  requestExample: { body: { conversation: { uuid: '0b6d5c1e-8f3a-4c2d-9e7b-5a4f3e2d1c0b' }, quick_reply: { name: 'Opening hours' } } },
});

export const sendTemplateEndpoint = definePublicEndpoint({
  operationId: 'sendTemplate',
  method: 'post',
  path: '/conversation/messages/template',
  summary: 'Send an approved template, also with the 24-hour window closed',
  description: `Variables fill {{1}}..{{n}} of the body (exactly n, none empty); the body after interpolation is at most 1024 characters. Payment markers are not replaced in templates in 0.2.0: left as written in body variables, refused in the header and button parameters. ${SENDS_DESCRIPTION}`,
  tag: 'Messages',
  successStatus: 201,
  successDescription: 'The template was sent (or simulated).',
  errorCodes: [
    ...CONVERSATION_REFERENCE_ERROR_CODES,
    'TEMPLATE_NOT_FOUND',
    'TEMPLATE_AMBIGUOUS',
    'TEMPLATE_NOT_APPROVED',
    'TEMPLATE_FAKE_REQUIRES_TESTER_CONVERSATION',
    'AUTH_TEMPLATE_REQUIRES_PHONE',
    'TEMPLATE_VARIABLES_INVALID',
    'TEMPLATE_HEADER_MISMATCH',
    'TEMPLATE_BODY_TOO_LONG',
    'PAYMENT_MARKER_UNSUPPORTED_FIELD',
    'FILE_NOT_FOUND',
    'TEMPLATE_HEADER_TRANSCRIPTION_MISSING',
    ...DELIVERY_ERROR_CODES,
  ],
  schemas: { body: SendTemplateRequestSchema, response: SendMessageResponseSchema },
  requestExample: {
    body: { conversation: { uuid: '0b6d5c1e-8f3a-4c2d-9e7b-5a4f3e2d1c0b' }, template: { name: 'order_update', language: 'es_MX' }, variables: [{ index: 1, value: 'Ana' }, { index: 2, value: '#1042' }] },
  },
});

export const MESSAGE_ENDPOINTS: readonly PublicEndpoint[] = [sendTextMessageEndpoint, sendQuickReplyEndpoint, sendTemplateEndpoint];
