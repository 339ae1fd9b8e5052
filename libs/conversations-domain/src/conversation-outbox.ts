import { ConversationModel } from '@cmsg/dal';
import type { ConversationEvent, ConversationEventPublisher } from './conversation-events';

/**
 * Publishes the events a state change wrote into the conversation's outbox, then removes them.
 * A crash before removal republishes them later (at-least-once; consumers dedupe by event id).
 */
export class ConversationOutbox {
  constructor(
    private readonly publisher: ConversationEventPublisher,
    private readonly onPublishError: (error: unknown, conversationId: string) => void,
  ) {}

  /** Never fails the caller: the state change is already stored, the relay retries the publish. */
  async flushQuietly(conversationId: string): Promise<void> {
    await this.flush(conversationId).catch((error: unknown) => this.onPublishError(error, conversationId));
  }

  async flush(conversationId: string): Promise<void> {
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

  /** Relay for events left behind by a crash: anything older than minAgeMs is flushed again. */
  async flushStale(minAgeMs: number, batch = 100): Promise<number> {
    const before = new Date(Date.now() - minAgeMs);
    const stale = await ConversationModel.find({ 'outbox.created_at': { $lt: before } }, { _id: 1 }).limit(batch).lean<{ _id: string }[]>();
    for (const { _id } of stale) await this.flushQuietly(_id);
    return stale.length;
  }
}
