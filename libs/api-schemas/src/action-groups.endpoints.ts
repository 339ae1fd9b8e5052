import type { ErrorCode } from '@cmsg/errors';
import {
  ActionGroupParamsSchema,
  ActionGroupSchema,
  AiAssistanceRequestSchema,
  AiAssistanceResponseSchema,
  RunAiRequestSchema,
  RunAiResponseSchema,
  SubmitActionGroupRequestSchema,
  SubmitActionGroupResponseSchema,
} from './action-group.schema';
import { ACTION_GROUP_LIMITS } from './action-group-limits';
import { CONVERSATION_REFERENCE_ERROR_CODES } from './conversation-reference.schema';
import { type PublicEndpoint, definePublicEndpoint } from './public-endpoint';

const TAG = 'Action groups';

/** What resolving an AI employee and its guards can answer (SPEC 4.3 rule 2). */
const AI_PREFLIGHT_ERROR_CODES = [
  'AI_EMPLOYEE_NOT_FOUND',
  'AMBIGUOUS_AI_EMPLOYEE',
  'INVALID_ASSIGNEE_FOR_RUN_AI',
  'WALLET_BLOCKED',
  'VISION_WALLET_BLOCKED',
  'ACTIONS_DEPTH_EXCEEDED',
] as const satisfies readonly ErrorCode[];

export const submitActionGroupEndpoint = definePublicEndpoint({
  operationId: 'submitActionGroup',
  method: 'post',
  path: '/conversation/actions',
  summary: 'Run a group of up to 10 ordered actions on one conversation, in the background',
  description:
    `Validates the group, resolves the conversation and runs the preflight (vision guard; employee, wallet and depth guards of each AI-triggering action); any failure rejects the whole group and its message names the action (\`actions[2] (run_ai): ...\`). ` +
    `Then the actions run in order in the background, after any earlier group of the same conversation. More than ${ACTION_GROUP_LIMITS.maxActions} actions, or more than ${ACTION_GROUP_LIMITS.maxAiTriggeringActions} AI-triggering ones, is BATCH_LIMIT_EXCEEDED.`,
  tag: TAG,
  successStatus: 202,
  successDescription: 'The group is accepted and runs in the background; follow it with GET /action-groups/{uuid}.',
  errorCodes: [...CONVERSATION_REFERENCE_ERROR_CODES, 'BATCH_LIMIT_EXCEEDED', 'SCHEDULED_MESSAGE_ACTION_INVALID', ...AI_PREFLIGHT_ERROR_CODES],
  schemas: { body: SubmitActionGroupRequestSchema, response: SubmitActionGroupResponseSchema },
  requestExample: {
    body: {
      conversation: { uuid: '0b6d5c1e-8f3a-4c2d-9e7b-5a4f3e2d1c0b' },
      actions: [
        { type: 'send_message', text: 'We are on it.' },
        { type: 'assign_label', tags: [{ name: 'VIP' }] },
        { type: 'context_note', note: 'Escalated by the CRM.' },
        { type: 'mark_pending' },
      ],
      stop_on_error: true,
      escalate_on_error: true,
    },
  },
});

export const getActionGroupEndpoint = definePublicEndpoint({
  operationId: 'getActionGroup',
  method: 'get',
  path: '/action-groups/:uuid',
  summary: 'Progress and per-action results of an action group',
  tag: TAG,
  successStatus: 200,
  successDescription: 'The group: status, escalation and the result of every action.',
  errorCodes: ['ACTION_GROUP_NOT_FOUND'],
  schemas: { params: ActionGroupParamsSchema, response: ActionGroupSchema },
});

export const runAiEndpoint = definePublicEndpoint({
  operationId: 'runAi',
  method: 'post',
  path: '/conversation/run-ai',
  summary: 'Run the assigned (or the given) AI employee on a conversation, in the background',
  description: 'Runs like an action group of one run_ai action, in order with the groups of the conversation.',
  tag: TAG,
  successStatus: 202,
  successDescription: 'The AI run is accepted.',
  errorCodes: [...CONVERSATION_REFERENCE_ERROR_CODES, ...AI_PREFLIGHT_ERROR_CODES],
  schemas: { body: RunAiRequestSchema, response: RunAiResponseSchema },
  requestExample: { body: { conversation: { uuid: '0b6d5c1e-8f3a-4c2d-9e7b-5a4f3e2d1c0b' }, ai_employee: { name: 'Sofia' } } },
});

export const aiAssistanceEndpoint = definePublicEndpoint({
  operationId: 'aiAssistance',
  method: 'post',
  path: '/conversation/ai-assistance',
  summary: 'Ask an AI employee about a conversation; the answer is stored as a context note',
  description: 'Synchronous: waits for the AI (300 s budget). Nothing is sent to the contact.',
  tag: TAG,
  successStatus: 200,
  successDescription: 'The answer and the note that holds it.',
  errorCodes: [
    ...CONVERSATION_REFERENCE_ERROR_CODES,
    'AI_EMPLOYEE_NOT_FOUND',
    'AMBIGUOUS_AI_EMPLOYEE',
    'WALLET_BLOCKED',
    'VISION_WALLET_BLOCKED',
    'AI_EXECUTION_FAILED',
  ],
  schemas: { body: AiAssistanceRequestSchema, response: AiAssistanceResponseSchema },
  requestExample: { body: { conversation: { uuid: '0b6d5c1e-8f3a-4c2d-9e7b-5a4f3e2d1c0b' }, ai_employee: { name: 'Sofia' }, prompt: 'Summarise what the customer asked for.' } },
});

export const ACTION_GROUP_ENDPOINTS: readonly PublicEndpoint[] = [submitActionGroupEndpoint, getActionGroupEndpoint, runAiEndpoint, aiAssistanceEndpoint];
