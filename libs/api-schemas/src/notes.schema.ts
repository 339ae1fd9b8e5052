import { ConversationIdSchema, DateTimeSchema, UuidSchema } from './common.schema';
import { CONVERSATION_REFERENCE_ERROR_CODES, ConversationReferenceSchema } from './conversation-reference.schema';
import { definePublicEndpoint } from './public-endpoint';
import { z } from './zod';
import { requiredText } from './text.schema';

export const NoteTextSchema = requiredText(5000).openapi({ description: 'Internal context note, never sent to the contact; stored exactly as sent.' });

export const AddNoteRequestSchema = z.object({ conversation: ConversationReferenceSchema, note: NoteTextSchema }).openapi('AddNoteRequest');

export const AddNoteResponseSchema = z
  .object({
    conversation: ConversationIdSchema,
    note: z.object({ uuid: UuidSchema, created_at: DateTimeSchema }),
  })
  .openapi('AddNoteResponse');

export type AddNoteRequest = z.infer<typeof AddNoteRequestSchema>;
export type AddNoteResponse = z.infer<typeof AddNoteResponseSchema>;

export const addNoteEndpoint = definePublicEndpoint({
  operationId: 'addConversationNote',
  method: 'post',
  path: '/conversation/notes',
  summary: 'Add an internal context note to a conversation timeline',
  tag: 'Conversations',
  successStatus: 201,
  successDescription: 'The note was stored (author type api_token).',
  errorCodes: CONVERSATION_REFERENCE_ERROR_CODES,
  schemas: { body: AddNoteRequestSchema, response: AddNoteResponseSchema },
  requestExample: { body: { conversation: { uuid: '0b6d5c1e-8f3a-4c2d-9e7b-5a4f3e2d1c0b' }, note: 'Customer prefers a call in the morning.' } },
});
