import { ConversationModel, ConversationOutboxClaimModel, ConversationOutboxModel, isDuplicateKeyError } from '@cmsg/dal';
import type { ConversationEvent, ConversationEventPublisher } from './conversation-events';

/** A relay that took a stale event holds it this long before another relay may take it. */
const RELAY_LEASE_MS = 30_000;
/** Relay claims are kept this long, then swept. */
const CLAIM_RETENTION_MS = 3_600_000;
interface StoredOutboxEvent {
  _id: string;
  conversation_id: string;
  type: string;
  payload: Record<string, unknown>;
  created_at: Date;
}

const eventOf = (stored: StoredOutboxEvent): ConversationEvent => ({ id: stored._id, type: stored.type, payload: stored.payload, created_at: stored.created_at });

/**
 * Publishes conversation events at least once (consumers dedupe by event id). An event is a
 * document of conversation_outbox written by the one writer of the change it announces; it is
 * published right after the change and deleted once published. A crash in between leaves it for
 * the relay, which takes each stale event by inserting a claim (one relay per event and lease
 * window, also on FerretDB). Events that older versions appended to the conversation's `outbox`
 * array are published and removed whenever that conversation is flushed.
 */
export class ConversationOutbox {
  constructor(
    private readonly publisher: ConversationEventPublisher,
    private readonly onPublishError: (error: unknown, conversationId: string) => void,
  ) {}

  /** Stores an event to publish; the caller flushes after its change. */
  async add(businessId: string, conversationId: string, event: ConversationEvent): Promise<void> {
    try {
      await ConversationOutboxModel.create({ _id: event.id, business_id: businessId, conversation_id: conversationId, type: event.type, payload: event.payload, created_at: event.created_at });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  /** Never fails the caller: the state change is already stored, the relay retries the publish. */
  async flushQuietly(conversationId: string): Promise<void> {
    await this.flush(conversationId).catch((error: unknown) => this.onPublishError(error, conversationId));
  }

  async flush(conversationId: string): Promise<void> {
    const stored = await ConversationOutboxModel.find({ conversation_id: conversationId }).sort({ created_at: 1 }).lean<StoredOutboxEvent[]>();
    if (stored.length > 0) {
      await this.publisher.publish(conversationId, stored.map(eventOf));
      await Promise.all(stored.map((event) => ConversationOutboxModel.deleteOne({ _id: event._id })));
    }
    await this.flushEmbedded(conversationId);
  }

  /** Relay for events left behind by a crash: anything older than minAgeMs is published again. */
  async flushStale(minAgeMs: number, batch = 100, now: Date = new Date()): Promise<number> {
    const before = new Date(now.getTime() - minAgeMs);
    const stale = await ConversationOutboxModel.find({ created_at: { $lt: before } }).limit(batch).lean<StoredOutboxEvent[]>();
    let published = 0;
    for (const event of stale) {
      if (!(await this.claim(event._id, now))) continue;
      try {
        await this.publisher.publish(event.conversation_id, [eventOf(event)]);
        await ConversationOutboxModel.deleteOne({ _id: event._id });
        published += 1;
      } catch (error) {
        this.onPublishError(error, event.conversation_id);
      }
    }
    await ConversationOutboxClaimModel.deleteMany({ created_at: { $lt: new Date(now.getTime() - CLAIM_RETENTION_MS) } });
    return published;
  }

  /** One relay per event and lease window: the insert of the claim decides. */
  private async claim(eventId: string, now: Date): Promise<boolean> {
    try {
      await ConversationOutboxClaimModel.create({ _id: `${eventId}:${Math.floor(now.getTime() / RELAY_LEASE_MS)}`, event_id: eventId, created_at: now });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  private async flushEmbedded(conversationId: string): Promise<void> {
    // The raw collection on purpose: FerretDB's $pull matches whole values only, so each entry is
    // removed by the exact document read here, untouched by schema casting.
    const conversation = await ConversationModel.collection.findOne<{ outbox?: ConversationEvent[] }>({ _id: conversationId as never }, { projection: { outbox: 1 } });
    const events = conversation?.outbox ?? [];
    if (events.length === 0) return;
    await this.publisher.publish(conversationId, events);
    for (const event of events) {
      await ConversationModel.collection.updateOne({ _id: conversationId as never }, { $pull: { outbox: event } as never });
    }
  }
}
