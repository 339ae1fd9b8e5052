/**
 * One recorded event (collection events): what a webhook carries and GET /events answers, in the
 * envelope built from it (docs/events.md). Written once, never changed; kept 30 days.
 */
export interface EventEntity {
  /** The event id: the id of the outbox entry that recorded it, stable across retries. */
  _id: string;
  business_id: string;
  business_slug: string;
  conversation_id: string | null;
  /** Increases per conversation in recording order (may have gaps); 0 without a conversation. */
  sequence: number;
  type: string;
  data: Record<string, unknown>;
  /** When the event was recorded. */
  created_at: Date;
}
