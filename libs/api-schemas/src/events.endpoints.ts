import { UuidSchema } from './common.schema';
import { EventEnvelopeSchema, EventTypeSchema } from './event-envelope.schema';
import { PaginationQuerySchema, pageOf } from './pagination.schema';
import { type PublicEndpoint, definePublicEndpoint } from './public-endpoint';
import { z } from './zod';

const TAG = 'Events';

/** CONTRACT 9.2 replay: each filter optional, combined with AND, bound into the cursor. */
export const ListEventsQuerySchema = PaginationQuerySchema.extend({
  type: EventTypeSchema.optional().openapi({ description: 'Only events of this type.', example: 'message.received' }),
  conversation_uuid: UuidSchema.optional().openapi({ description: 'Only events of this conversation.', example: '3f2b8c1e-6a4d-4e0b-9c7a-1d2e3f4a5b6c' }),
  created_since: z.iso
    .datetime({ offset: true })
    .optional()
    .openapi({ description: 'Only events recorded at or after this instant (RFC 3339; a `+` offset must be sent as `%2B`).', example: '2025-01-31T18:00:00Z' }),
});

export const EventListResponseSchema = pageOf(EventEnvelopeSchema, 'EventList');

export const EventParamsSchema = z.object({
  id: z
    .string()
    .min(1)
    .max(255)
    .openapi({ param: { description: 'The event id (the webhook-id of its deliveries).' }, example: '9b1d3c52-7f0e-4a8b-b2c4-5d6e7f809a1b' }),
});

export type ListEventsQuery = z.infer<typeof ListEventsQuerySchema>;
export type EventListResponse = z.infer<typeof EventListResponseSchema>;

export const listEventsEndpoint = definePublicEndpoint({
  operationId: 'listEvents',
  method: 'get',
  path: '/events',
  summary: "List the business's events of the last 30 days, oldest first",
  description:
    'The envelopes the webhooks carry, for a receiver that was down to reconcile without asking for redeliveries. Events are listed in the order they were recorded; `sequence` orders the events of one conversation. ' +
    'Optional filters, combined with AND: `type`, `conversation_uuid`, `created_since`. The filters are bound into the cursor: pass the same ones with `cursor`, otherwise 400 INVALID_CURSOR.',
  tag: TAG,
  successStatus: 200,
  successDescription: 'One page of events.',
  errorCodes: ['INVALID_CURSOR'],
  schemas: { query: ListEventsQuerySchema, response: EventListResponseSchema },
  requestExample: { query: { type: 'message.received', created_since: '2025-01-31T18:00:00Z', limit: '50' } },
});

export const getEventEndpoint = definePublicEndpoint({
  operationId: 'getEvent',
  method: 'get',
  path: '/events/:id',
  summary: 'Get one event of the last 30 days',
  tag: TAG,
  successStatus: 200,
  successDescription: 'The event, as its webhook deliveries carry it.',
  errorCodes: ['EVENT_NOT_FOUND'],
  schemas: { params: EventParamsSchema, response: EventEnvelopeSchema },
});

export const EVENT_ENDPOINTS: readonly PublicEndpoint[] = [listEventsEndpoint, getEventEndpoint];
