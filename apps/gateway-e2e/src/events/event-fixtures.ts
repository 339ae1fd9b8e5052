import { EventEnvelopeSchema } from '@cmsg/api-schemas';
import type { EventEntity } from '@cmsg/dal';
import { type StoredDocument, eventually, storedCollection } from '@cmsg/testing';

/** An event as stored (collection events), its data open to the assertions. */
export type StoredEvent = Omit<EventEntity, 'data'> & { data: Record<string, any> };

/** The envelope GET /events and the webhooks carry for a stored event. */
export function envelopeOf(event: StoredEvent) {
  return {
    id: event._id,
    type: event.type,
    created_at: event.created_at.toISOString(),
    business: { slug: event.business_slug },
    conversation: event.conversation_id ? { uuid: event.conversation_id } : null,
    sequence: event.sequence,
    data: event.data,
  };
}

/**
 * The conversation's events, in sequence order (straight from the database: no request budget
 * spent). Each one's envelope must be valid by the public schema of its type.
 */
export async function eventsOfConversation(conversationId: string): Promise<StoredEvent[]> {
  const events = (await storedCollection('events').find({ conversation_id: conversationId }).toArray()) as unknown as StoredEvent[];
  for (const event of events) {
    const checked = EventEnvelopeSchema.safeParse(envelopeOf(event));
    if (!checked.success) throw new Error(`event ${event.type} ${event._id} does not match its public schema: ${checked.error.message}\n${JSON.stringify(event.data)}`);
  }
  return events.sort((a, b) => a.sequence - b.sequence);
}

/**
 * Waits until the conversation has `count` events matching `filter`, then a while longer for any that
 * should not come, and answers them in sequence order.
 */
export async function settledEvents(conversationId: string, count: number, filter: (event: StoredEvent) => boolean = () => true): Promise<StoredEvent[]> {
  await eventually(
    async () => (await eventsOfConversation(conversationId)).filter(filter),
    (events) => events.length >= count,
    30_000,
  );
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return (await eventsOfConversation(conversationId)).filter(filter);
}

/** The conversation's timeline rows of kind event, oldest first. */
export async function eventRowsOf(conversationId: string): Promise<StoredDocument[]> {
  return storedCollection('timeline_events').find({ conversation_id: conversationId, kind: 'event' }).sort({ created_at: 1, _id: 1 }).toArray();
}

/** The types of events, in order. */
export const typesOf = (events: readonly StoredEvent[]) => events.map((event) => event.type);

/** Sequences strictly increase (in the order given). */
export function strictlyIncreasing(events: readonly StoredEvent[]): boolean {
  return events.every((event, index) => index === 0 || event.sequence > events[index - 1]!.sequence);
}

/** Every outbox of the collections that have one is empty for this document. */
export async function outboxOf(collection: string, id: string): Promise<unknown[]> {
  return ((await storedCollection(collection).findOne({ _id: id }))?.['outbox'] as unknown[] | undefined) ?? [];
}

/** The author of what an API token did, as events name it. */
export const tokenAuthor = (tokenUuid: string) => ({ type: 'api_token', uuid: tokenUuid, name: null });
export const SYSTEM = { type: 'system', uuid: null, name: null };
