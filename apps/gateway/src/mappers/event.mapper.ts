import type { EventEnvelope, EventListResponse } from '@cmsg/api-schemas';
import type { Event, ListEventsResponse } from '@cmsg/proto';

/** The public envelope (CONTRACT 9.2) of an event as the conversations service answers it; `data` is its stored JSON. */
export function toEventEnvelope(event: Event): EventEnvelope {
  return {
    id: event.id,
    type: event.type,
    created_at: event.created_at,
    business: { slug: event.business_slug },
    conversation: event.conversation_uuid ? { uuid: event.conversation_uuid } : null,
    sequence: event.sequence,
    data: JSON.parse(event.data_json) as unknown,
  } as EventEnvelope;
}

export function toEventListResponse(response: ListEventsResponse): EventListResponse {
  return { items: response.items.map(toEventEnvelope), has_more: response.has_more, next_cursor: response.next_cursor };
}
