import type { ErrorCode } from '@cmsg/errors';
import { CONVERSATION_REFERENCE_ERROR_CODES } from './conversation-reference.schema';
import { type PublicEndpoint, definePublicEndpoint } from './public-endpoint';
import {
  CreateScheduledMessageRequestSchema,
  CreateScheduledMessageResponseSchema,
  ScheduledMessageParamsSchema,
  ScheduledMessageSchema,
} from './scheduled-message.schema';

const TAG = 'Scheduled messages';

/** SPEC 4.1 error table, beyond the pipeline's codes. */
const CREATE_SCHEDULE_ERROR_CODES = [
  ...CONVERSATION_REFERENCE_ERROR_CODES,
  'AI_EMPLOYEE_NOT_FOUND',
  'TEMPLATE_NOT_FOUND',
  'TEMPLATE_NOT_APPROVED',
  'FILE_NOT_FOUND',
  'QUICK_REPLY_NOT_FOUND',
  'SCHEDULE_CONFLICT',
  'NO_AI_EMPLOYEE_ASSIGNED',
  'WINDOW_CLOSED',
  'OWNER_MISMATCH',
] as const satisfies readonly ErrorCode[];

export const createScheduledMessageEndpoint = definePublicEndpoint({
  operationId: 'createScheduledMessage',
  method: 'post',
  path: '/conversation/scheduled-message',
  summary: 'Schedule a message, sent later by the AI employee or as the given payload',
  description:
    'schedule_at is a local date and time in the business time zone, at most 366 days ahead of the conversation\'s now (the virtual clock for tester conversations). ' +
    'At most one schedule is pending per conversation: a new one cancels the previous one in the same atomic step. ' +
    'ai_employee: the conversation must have an AI assigned (NO_AI_EMPLOYEE_ASSIGNED) and ai_employee_uuid, when given, must be it (OWNER_MISMATCH); at firing the reason becomes a context note, then the AI replies, or the fallback template is sent when the 24 h window is closed. ' +
    'human_user: the conversation must have no AI assigned (OWNER_MISMATCH); with the window closed now, only message_kind template is accepted (WINDOW_CLOSED); at firing the payload is sent, or the template when the window is closed.',
  tag: TAG,
  successStatus: 201,
  successDescription: 'The schedule is pending.',
  errorCodes: CREATE_SCHEDULE_ERROR_CODES,
  schemas: { body: CreateScheduledMessageRequestSchema, response: CreateScheduledMessageResponseSchema },
  requestExample: {
    body: {
      executor_kind: 'human_user',
      conversation: { uuid: '0b6d5c1e-8f3a-4c2d-9e7b-5a4f3e2d1c0b' },
      schedule_at: { date: '2026-03-08', time: '09:30' },
      message_kind: 'message',
      payload: { kind: 'message', text: 'Good morning! Your appointment is at 11:00.' },
      template_uuid: 'a7b8c9d0-e1f2-4a3b-8c4d-5e6f7a8b9c0d',
      template_variables: [{ index: 1, value: '11:00' }],
    },
  },
});

export const getScheduledMessageEndpoint = definePublicEndpoint({
  operationId: 'getScheduledMessage',
  method: 'get',
  path: '/scheduled-messages/:uuid',
  summary: 'The full record of a scheduled message: executor, payload, status, error and history',
  tag: TAG,
  successStatus: 200,
  successDescription: 'The scheduled message.',
  errorCodes: ['SCHEDULED_MESSAGE_NOT_FOUND'],
  schemas: { params: ScheduledMessageParamsSchema, response: ScheduledMessageSchema },
});

export const cancelScheduledMessageEndpoint = definePublicEndpoint({
  operationId: 'cancelScheduledMessage',
  method: 'delete',
  path: '/scheduled-messages/:uuid',
  summary: 'Cancel a pending scheduled message',
  description:
    'A pending schedule becomes cancelled. One already cancelled is answered as it is (200, nothing changes). One that already fired (being sent, sent or failed) cannot be cancelled: 409 SCHEDULE_CONFLICT.',
  tag: TAG,
  successStatus: 200,
  successDescription: 'The cancelled scheduled message.',
  errorCodes: ['SCHEDULED_MESSAGE_NOT_FOUND', 'SCHEDULE_CONFLICT'],
  schemas: { params: ScheduledMessageParamsSchema, response: ScheduledMessageSchema },
});

export const SCHEDULED_MESSAGE_ENDPOINTS: readonly PublicEndpoint[] = [createScheduledMessageEndpoint, getScheduledMessageEndpoint, cancelScheduledMessageEndpoint];
