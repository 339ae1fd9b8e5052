import type { ErrorCode } from '@cmsg/errors';
import {
  BroadcastListQuerySchema,
  BroadcastListResponseSchema,
  BroadcastParamsSchema,
  BroadcastPreviewSchema,
  BroadcastRecipientListQuerySchema,
  BroadcastRecipientListResponseSchema,
  BroadcastSchema,
  CreateBroadcastRequestSchema,
} from './broadcast.schema';
import { type PublicEndpoint, definePublicEndpoint } from './public-endpoint';
import { z } from './zod';

const TAG = 'Broadcasts';

/** What a broadcast's definition can be refused with, on creation and on preview alike (beyond INVALID_REQUEST). */
const DEFINITION_ERROR_CODES = ['CHANNEL_NOT_FOUND', 'TEMPLATE_NOT_FOUND', 'TEMPLATE_NOT_APPROVED'] as const satisfies readonly ErrorCode[];

const DEFINITION_DESCRIPTION =
  "The channel, the template (on that channel; approved, else 422 TEMPLATE_NOT_APPROVED), the placeholders (`{{row.*}}` only with a file audience: 400 INVALID_REQUEST) and the audience are checked before anything is stored; a filter is checked as POST /contacts/search checks it (400 INVALID_REQUEST naming its path).";

const exampleAudienceContacts = ['3f2b8c1e-6a4d-4e0b-9c7a-1d2e3f4a5b6c', '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a'];

const exampleBody: z.input<typeof CreateBroadcastRequestSchema> = {
  name: 'Gold plan renewal, March',
  channel: 'main',
  template: { name: 'plan_renewal', language: 'es_MX' },
  variables: [
    { index: 1, value: '{{contact.first_name|there}}' },
    { index: 2, value: '{{contact.attributes.renewal}}' },
  ],
  audience: {
    filter: { and: [{ field: 'attributes.plan', op: 'eq', value: 'gold' }, { field: 'consent.marketing', op: 'neq', value: 'opted_out' }] },
  },
  send_at: '2026-03-01T15:00:00Z',
  max_per_second: 40,
  send_window: { from: '09:00', to: '20:00' },
};

export const createBroadcastEndpoint = definePublicEndpoint({
  operationId: 'createBroadcast',
  method: 'post',
  path: '/broadcasts',
  summary: 'Create a broadcast: one approved template to an audience, sent at the channel\'s limits, once per recipient',
  description: `${DEFINITION_DESCRIPTION} It starts at send_at (default now): \`scheduled\` until then, \`preparing\` while the audience is frozen, then \`running\`. Each recipient's message is an ordinary outbound message in its conversation. Events: broadcast.started, broadcast.paused, broadcast.completed. With an Idempotency-Key a retry answers the first answer.`,
  tag: TAG,
  successStatus: 201,
  successDescription: 'The broadcast, scheduled or preparing.',
  errorCodes: DEFINITION_ERROR_CODES,
  schemas: { body: CreateBroadcastRequestSchema, response: BroadcastSchema },
  requestExample: { body: exampleBody },
});

export const previewBroadcastEndpoint = definePublicEndpoint({
  operationId: 'previewBroadcast',
  method: 'post',
  path: '/broadcasts/preview',
  summary: 'Count the audience of a broadcast as it would be frozen now; nothing is stored or sent',
  description: `A read (\`conversations:read\`) with the body of POST /broadcasts. ${DEFINITION_DESCRIPTION}`,
  tag: TAG,
  successStatus: 200,
  successDescription: 'What the broadcast would reach now.',
  errorCodes: DEFINITION_ERROR_CODES,
  schemas: { body: CreateBroadcastRequestSchema, response: BroadcastPreviewSchema },
  requestExample: {
    body: { name: 'Order follow-up', channel: 'main', template: { uuid: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d' }, variables: [{ index: 1, value: '{{contact.first_name|there}}' }], audience: { contacts: exampleAudienceContacts } },
  },
});

export const listBroadcastsEndpoint = definePublicEndpoint({
  operationId: 'listBroadcasts',
  method: 'get',
  path: '/broadcasts',
  summary: "List the business's broadcasts, newest first",
  description: 'status filters and is bound into the cursor (a cursor used with another status is INVALID_CURSOR).',
  tag: TAG,
  successStatus: 200,
  successDescription: 'One page of broadcasts.',
  errorCodes: ['INVALID_CURSOR'],
  schemas: { query: BroadcastListQuerySchema, response: BroadcastListResponseSchema },
  requestExample: { query: { status: 'running', limit: '20' } },
});

export const getBroadcastEndpoint = definePublicEndpoint({
  operationId: 'getBroadcast',
  method: 'get',
  path: '/broadcasts/:uuid',
  summary: 'One broadcast: its status, counts and rate',
  tag: TAG,
  successStatus: 200,
  successDescription: 'The broadcast.',
  errorCodes: ['BROADCAST_NOT_FOUND'],
  schemas: { params: BroadcastParamsSchema, response: BroadcastSchema },
});

/** POST /broadcasts/{uuid}/<path>: one state transition, 200 with the broadcast. */
function transitionEndpoint(operationId: string, path: string, summary: string, description: string) {
  return definePublicEndpoint({
    operationId,
    method: 'post',
    path: `/broadcasts/:uuid/${path}`,
    summary,
    description: `${description} A transition that does not apply to the broadcast's status: 409 BROADCAST_STATE_CONFLICT.`,
    tag: TAG,
    successStatus: 200,
    successDescription: 'The broadcast after the transition.',
    errorCodes: ['BROADCAST_NOT_FOUND', 'BROADCAST_STATE_CONFLICT'],
    schemas: { params: BroadcastParamsSchema, response: BroadcastSchema },
  });
}

export const pauseBroadcastEndpoint = transitionEndpoint(
  'pauseBroadcast',
  'pause',
  'Pause a broadcast',
  'A running broadcast stops sending (pause_reason `manual`) until resumed; the calls already in flight end.',
);

export const resumeBroadcastEndpoint = transitionEndpoint(
  'resumeBroadcast',
  'resume',
  'Resume a paused broadcast',
  'A paused broadcast goes on where it stopped. One paused for its messaging limit also resumes by itself when units free up.',
);

export const cancelBroadcastEndpoint = transitionEndpoint(
  'cancelBroadcast',
  'cancel',
  'Cancel a broadcast',
  'Every pending recipient becomes skipped (`cancelled`); the calls in flight end. Final: cancelled.',
);

export const retryFailedBroadcastEndpoint = transitionEndpoint(
  'retryFailedBroadcast',
  'retry-failed',
  'Send again to the recipients that failed with a retryable provider error',
  'For a running, paused or completed broadcast: recipients that failed with a provider code the provider documents as temporary (131000, 131016, and 130429, 131056, 131048 once their retries ran out) go back to pending and are sent again, as a new message; a completed broadcast runs again. Never `unknown` recipients, whose call may have reached the provider.',
);

export const listBroadcastRecipientsEndpoint = definePublicEndpoint({
  operationId: 'listBroadcastRecipients',
  method: 'get',
  path: '/broadcasts/:uuid/recipients',
  summary: "A broadcast's recipients in the order the audience was frozen: status, skip reason, error, message",
  description: 'status filters and is bound into the cursor (a cursor used with another status is INVALID_CURSOR). Empty until the audience is frozen.',
  tag: TAG,
  successStatus: 200,
  successDescription: 'One page of recipients.',
  errorCodes: ['BROADCAST_NOT_FOUND', 'INVALID_CURSOR'],
  schemas: { params: BroadcastParamsSchema, query: BroadcastRecipientListQuerySchema, response: BroadcastRecipientListResponseSchema },
  requestExample: { query: { status: 'failed', limit: '100' } },
});

export const BROADCAST_ENDPOINTS: readonly PublicEndpoint[] = [
  createBroadcastEndpoint,
  previewBroadcastEndpoint,
  listBroadcastsEndpoint,
  getBroadcastEndpoint,
  pauseBroadcastEndpoint,
  resumeBroadcastEndpoint,
  cancelBroadcastEndpoint,
  retryFailedBroadcastEndpoint,
  listBroadcastRecipientsEndpoint,
];
