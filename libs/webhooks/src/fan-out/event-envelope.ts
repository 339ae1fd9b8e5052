import type { EventEntity } from '@cmsg/dal';

/** A recorded event as the fan-out takes it: a document of the `events` collection, handed over as the recorder stored it. */
export type FanOutEvent = EventEntity;

/** CONTRACT 9.2's envelope: what a webhook carries (and GET /events answers), in this key order. */
export interface EventEnvelope {
  id: string;
  type: string;
  created_at: string;
  business: { slug: string };
  conversation: { uuid: string } | null;
  sequence: number;
  data: Record<string, unknown>;
}

export function eventEnvelope(event: FanOutEvent): EventEnvelope {
  return {
    id: event._id,
    type: event.type,
    created_at: event.created_at.toISOString(),
    business: { slug: event.business_slug },
    conversation: event.conversation_id === null ? null : { uuid: event.conversation_id },
    sequence: event.sequence,
    data: event.data,
  };
}
