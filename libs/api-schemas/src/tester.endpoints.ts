import { CONVERSATION_REFERENCE_ERROR_CODES } from './conversation-reference.schema';
import { type PublicEndpoint, definePublicEndpoint } from './public-endpoint';
import {
  AdvanceTesterClockRequestSchema,
  AdvanceTesterClockResponseSchema,
  CreateTesterContactRequestSchema,
  CreateTesterContactResponseSchema,
  TesterInboundRequestSchema,
  TesterInboundResponseSchema,
  TesterMessagesQuerySchema,
  TesterMessagesResponseSchema,
} from './tester.schema';

const TAG = 'Tester';

export const createTesterContactEndpoint = definePublicEndpoint({
  operationId: 'createTesterContact',
  method: 'post',
  path: '/tester/contacts',
  summary: 'Create a tester contact and its conversation',
  description: 'Tester conversations are fictitious: nothing sent to them reaches the channel provider, and they live on the business virtual clock.',
  tag: TAG,
  successStatus: 201,
  successDescription: 'The tester contact and the uuid of its conversation.',
  errorCodes: ['CHANNEL_NOT_FOUND'],
  schemas: { body: CreateTesterContactRequestSchema, response: CreateTesterContactResponseSchema },
  requestExample: { body: { first_name: 'Test', last_name: 'Customer', phone: '+52 55 0000 0001' } },
});

export const testerInboundEndpoint = definePublicEndpoint({
  operationId: 'simulateTesterInbound',
  method: 'post',
  path: '/tester/inbound',
  summary: 'Simulate the customer writing on a tester conversation',
  description:
    'Recorded at the virtual now: opens the 24 h window, cancels schedules created with cancel_on_customer_reply, and, when an AI is assigned and the conversation is not pending, queues the AI reply.',
  tag: TAG,
  successStatus: 201,
  successDescription: 'The customer message was recorded.',
  errorCodes: [...CONVERSATION_REFERENCE_ERROR_CODES, 'NOT_A_TESTER_CONVERSATION'],
  schemas: { body: TesterInboundRequestSchema, response: TesterInboundResponseSchema },
  requestExample: { body: { conversation: { uuid: '0b6d5c1e-8f3a-4c2d-9e7b-5a4f3e2d1c0b' }, text: 'Hi, is my order on its way?' } },
});

export const advanceTesterClockEndpoint = definePublicEndpoint({
  operationId: 'advanceTesterClock',
  method: 'post',
  path: '/tester/clock',
  summary: "Move the business's tester clock forward",
  description: 'Tester schedules that become due on the virtual clock fire within a few seconds.',
  tag: TAG,
  successStatus: 200,
  successDescription: 'The new virtual now.',
  errorCodes: [],
  schemas: { body: AdvanceTesterClockRequestSchema, response: AdvanceTesterClockResponseSchema },
  requestExample: { body: { advance_seconds: 3600 } },
});

export const listTesterMessagesEndpoint = definePublicEndpoint({
  operationId: 'listTesterMessages',
  method: 'get',
  path: '/tester/messages',
  summary: 'What was "sent" to a tester conversation (simulated), newest first',
  tag: TAG,
  successStatus: 200,
  successDescription: 'The simulated outbound messages.',
  errorCodes: ['CONVERSATION_NOT_FOUND', 'NOT_A_TESTER_CONVERSATION'],
  schemas: { query: TesterMessagesQuerySchema, response: TesterMessagesResponseSchema },
  requestExample: { query: { conversation_uuid: '0b6d5c1e-8f3a-4c2d-9e7b-5a4f3e2d1c0b', limit: '20' } },
});

export const TESTER_ENDPOINTS: readonly PublicEndpoint[] = [createTesterContactEndpoint, testerInboundEndpoint, advanceTesterClockEndpoint, listTesterMessagesEndpoint];
