import { UuidSchema } from './common.schema';
import { PaginationQuerySchema, pageOf } from './pagination.schema';
import { definePublicEndpoint } from './public-endpoint';
import { TimelineItemSchema } from './timeline-item.schema';
import { z } from './zod';

export const TIMELINE_ITEM_KINDS = ['message', 'note', 'event'] as const;

const KIND = `(${TIMELINE_ITEM_KINDS.join('|')})`;

export const ConversationTimelineQuerySchema = PaginationQuerySchema.extend({
  conversation_uuid: UuidSchema.openapi({ description: 'The conversation.' }),
  kinds: z
    .string()
    .regex(new RegExp(`^${KIND}(,${KIND})*$`), `a comma list of ${TIMELINE_ITEM_KINDS.join(', ')}`)
    .transform((value) => [...new Set(value.split(','))])
    .optional()
    .openapi({ description: `A comma list of ${TIMELINE_ITEM_KINDS.join(', ')}; all of them when absent.`, param: { example: 'message,note' } }),
  order: z.enum(['asc', 'desc']).default('asc').openapi({ description: 'asc: oldest first; desc: newest first. By created_at, a message before a note or an event of the same instant, then uuid.' }),
});

export const ConversationTimelineResponseSchema = pageOf(TimelineItemSchema, 'ConversationTimeline');

export type ConversationTimelineQuery = z.infer<typeof ConversationTimelineQuerySchema>;
export type ConversationTimelineResponse = z.infer<typeof ConversationTimelineResponseSchema>;

export const conversationTimelineEndpoint = definePublicEndpoint({
  operationId: 'getConversationTimeline',
  method: 'get',
  path: '/conversation/timeline',
  summary: "A conversation's messages, notes and events in one list, oldest first by default, with cursor pagination",
  description:
    'The same rows the AI employees read. A cursor is bound to the conversation, the kinds and the order it was made with: using it with others is 400 `INVALID_CURSOR`.',
  tag: 'Conversations',
  successStatus: 200,
  successDescription: 'One page of the timeline.',
  errorCodes: ['INVALID_CURSOR', 'CONVERSATION_NOT_FOUND'],
  schemas: { query: ConversationTimelineQuerySchema, response: ConversationTimelineResponseSchema },
  requestExample: { query: { conversation_uuid: '0b6d5c1e-8f3a-4c2d-9e7b-5a4f3e2d1c0b', kinds: 'message,note', order: 'desc', limit: '20' } },
});
