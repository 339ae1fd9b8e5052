import { getEventEndpoint, listEventsEndpoint } from '@cmsg/api-schemas';
import { toEventEnvelope, toEventListResponse } from '../mappers/event.mapper';
import { type BusinessRoute, businessRoute } from './business-route';

/** Replay of the business's events (CONTRACT 9.2). */
export const eventRoutes: readonly BusinessRoute[] = [
  businessRoute(listEventsEndpoint, {
    call: ({ conversations }, { caller, query }) =>
      conversations.listEvents({
        caller,
        cursor: query.cursor,
        limit: query.limit,
        type: query.type,
        conversation_uuid: query.conversation_uuid,
        created_since: query.created_since,
      }),
    toResponse: toEventListResponse,
  }),
  businessRoute(getEventEndpoint, {
    call: ({ conversations }, { caller, params }) => conversations.getEvent({ caller, id: params.id }),
    toResponse: toEventEnvelope,
  }),
];
