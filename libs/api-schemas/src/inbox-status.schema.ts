import { ConversationIdSchema, InboxStatusSchema } from './common.schema';
import { CONVERSATION_REFERENCE_ERROR_CODES, ConversationReferenceSchema } from './conversation-reference.schema';
import { definePublicEndpoint } from './public-endpoint';
import { z } from './zod';

export const InboxStatusChangeRequestSchema = z.object({ conversation: ConversationReferenceSchema }).openapi('InboxStatusChangeRequest');

export const InboxStatusChangeResponseSchema = z
  .object({ conversation: ConversationIdSchema, inbox_status: InboxStatusSchema })
  .openapi('InboxStatusChangeResponse');

export type InboxStatusChangeRequest = z.infer<typeof InboxStatusChangeRequestSchema>;
export type InboxStatusChangeResponse = z.infer<typeof InboxStatusChangeResponseSchema>;

export const markPendingEndpoint = definePublicEndpoint({
  operationId: 'markConversationPending',
  method: 'post',
  path: '/conversation/pending',
  summary: 'Mark a conversation pending (human handoff); the assigned AI stops auto-replying',
  tag: 'Conversations',
  successStatus: 200,
  successDescription: 'The conversation is pending (also when it already was).',
  errorCodes: CONVERSATION_REFERENCE_ERROR_CODES,
  schemas: { body: InboxStatusChangeRequestSchema, response: InboxStatusChangeResponseSchema },
  requestExample: { body: { conversation: { uuid: '0b6d5c1e-8f3a-4c2d-9e7b-5a4f3e2d1c0b' } } },
});

export const markResolvedEndpoint = definePublicEndpoint({
  operationId: 'markConversationResolved',
  method: 'post',
  path: '/conversation/resolve',
  summary: 'Mark a conversation resolved; the assigned AI becomes available again',
  tag: 'Conversations',
  successStatus: 200,
  successDescription: 'The conversation is resolved.',
  errorCodes: [...CONVERSATION_REFERENCE_ERROR_CODES, 'TRANSCRIPTION_REQUIRED_TO_RESOLVE'],
  schemas: { body: InboxStatusChangeRequestSchema, response: InboxStatusChangeResponseSchema },
  requestExample: { body: { conversation: { uuid: '0b6d5c1e-8f3a-4c2d-9e7b-5a4f3e2d1c0b' } } },
});
