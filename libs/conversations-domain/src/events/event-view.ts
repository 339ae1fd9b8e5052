import type { EventEntity } from '@cmsg/dal';
import type { Event } from '@cmsg/proto';

/** An event as the conversations service answers it; the gateway turns it into the public envelope. */
export function toEventView(event: EventEntity): Event {
  return {
    id: event._id,
    type: event.type,
    created_at: event.created_at.toISOString(),
    business_slug: event.business_slug,
    conversation_uuid: event.conversation_id ?? undefined,
    sequence: event.sequence,
    data_json: JSON.stringify(event.data),
  };
}
