/**
 * A recorded event as the fan-out takes it: the shape of the `events` collection's documents
 * (docs/webhooks.md), so the recorder hands its document over as it is.
 */
export interface FanOutEvent {
  _id: string;
  business_id: string;
  business_slug: string;
  conversation_id: string | null;
  /** Increases per conversation; 0 for an event of no conversation (ping). */
  sequence: number;
  type: string;
  data: Record<string, unknown>;
  created_at: Date;
}

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
