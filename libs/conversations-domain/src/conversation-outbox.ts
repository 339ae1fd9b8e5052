import { type BusinessScope, businessScope } from '@cmsg/dal';
import type { ConversationEvent, ConversationEventPublisher } from './conversation-events';
import { repositories } from './repositories';

/**
 * Publishes conversation events at least once; consumers dedupe by event id. An event is pushed
 * into the conversation's `outbox` array in the same update as the change it announces
 * (ConversationRepository), published by the writer of that change right after it, and pulled by
 * id once published. A crash in between leaves it in the outbox, where the relay finds it once it
 * is older than the relay's delay.
 *
 * Two publishers may publish the same event: a writer slower than the relay's delay and the relay,
 * or two replicas' relays passing at once. Both are harmless (every consumer dedupes by id), so
 * nothing claims an event before publishing it. Each process runs one relay pass at a time
 * (apps/conversations).
 */
export class ConversationOutbox {
  constructor(
    private readonly publisher: ConversationEventPublisher,
    private readonly onPublishError: (error: unknown, conversationId: string) => void,
  ) {}

  /** Publishes the event a change just pushed. Never fails the caller: the change is stored, the relay retries. */
  async publishQuietly(scope: BusinessScope, conversationId: string, event: ConversationEvent): Promise<void> {
    await this.publish(scope, conversationId, [event]).catch((error: unknown) => this.onPublishError(error, conversationId));
  }

  /** The relay: publishes every event still waiting minAgeMs after it was written. Answers how many it published. */
  async flushStale(minAgeMs: number, batch = 100, now: Date = new Date()): Promise<number> {
    const before = new Date(now.getTime() - minAgeMs);
    const waiting = await repositories.conversations.findWithStaleOutboxAcrossBusinesses(before, batch);
    let published = 0;
    for (const conversation of waiting) {
      const stale = conversation.outbox.filter((event) => event.created_at < before);
      try {
        await this.publish(businessScope(conversation.business_id), conversation._id, stale);
        published += stale.length;
      } catch (error) {
        this.onPublishError(error, conversation._id);
      }
    }
    return published;
  }

  private async publish(scope: BusinessScope, conversationId: string, events: readonly ConversationEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.publisher.publish(conversationId, [...events]);
    await repositories.conversations.pullOutboxEvents(
      scope,
      conversationId,
      events.map((event) => event.id),
    );
  }
}
