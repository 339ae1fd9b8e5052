import {
  type BusinessScope,
  ConversationRepository,
  type EventEntity,
  EventRepository,
  type OutboxCollection,
  type OutboxEntry,
  OutboxRepository,
  TimelineEventRepository,
} from '@cmsg/dal';
import type { BusinessSlugs } from './business-slugs';
import { type ConversationEventBus, conversationEventMessageOf } from './conversation-event-bus';
import { entryKindOf } from './entry-types';
import type { EventFanOut } from '@cmsg/webhooks';

export interface EventRecorderDependencies {
  /** The webhook endpoints' fan-out (libs/webhooks, WebhookFanOut): idempotent by event id. */
  fanOut: Pick<EventFanOut, 'fanOut'>;
  bus: ConversationEventBus;
  slugs: BusinessSlugs;
}

/** An entry written before events existed (`{ id, type, payload, created_at }`): published as it was, then dropped. */
interface LegacyConversationEvent {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  created_at: Date;
}

/**
 * Records one outbox entry, idempotently by its id (docs/events.md): the event (unless stored
 * already) with the conversation's next sequence, the timeline row (insert-if-absent by the same
 * id), the fan-out to webhook endpoints, the conversation-events topic where a consumer reads the
 * type, then the entry leaves its document's outbox. Every step may run again (a writer and the
 * relay racing, a crash halfway) and yields one event and one row; a race may spend a sequence
 * number that no event keeps (a gap).
 */
export class EventRecorder {
  private readonly events = new EventRepository();
  private readonly conversations = new ConversationRepository();
  private readonly timeline = new TimelineEventRepository();
  private readonly outboxes = new OutboxRepository();

  constructor(private readonly dependencies: EventRecorderDependencies) {}

  async record(collection: OutboxCollection, scope: BusinessScope, documentId: string, entry: OutboxEntry): Promise<void> {
    if (isLegacy(entry)) {
      await this.dependencies.bus.publish(documentId, { id: entry.id, type: entry.type, created_at: entry.created_at.toISOString(), data: entry.payload });
    } else {
      await this.recordEntry(scope, entry);
    }
    await this.outboxes.pull(collection, scope, documentId, [entry.id]);
  }

  private async recordEntry(scope: BusinessScope, entry: OutboxEntry): Promise<void> {
    const kind = entryKindOf(entry.type);
    if (!kind) throw new Error(`outbox entry ${entry.id} has an unknown type ${JSON.stringify(entry.type)}`);
    if (kind.timeline && entry.conversation_id) {
      await this.timeline.insertIfAbsent(scope, {
        id: entry.id,
        conversationId: entry.conversation_id,
        kind: 'event',
        eventType: kind.timeline,
        data: entry.data,
        author: entry.author,
        createdAt: entry.created_at,
      });
    }
    if (kind.publicEvent) await this.dependencies.fanOut.fanOut(await this.storedEvent(scope, entry));
    const message = conversationEventMessageOf(entry, scope.businessId);
    if (message && entry.conversation_id) await this.dependencies.bus.publish(entry.conversation_id, message);
  }

  /** The event of the entry: the stored one, or inserted now with the conversation's next sequence. */
  private async storedEvent(scope: BusinessScope, entry: OutboxEntry): Promise<EventEntity> {
    const existing = await this.events.findById(scope, entry.id);
    if (existing) return existing;
    const sequence = entry.conversation_id ? ((await this.conversations.nextEventSequence(scope, entry.conversation_id)) ?? 0) : 0;
    const event: EventEntity = {
      _id: entry.id,
      business_id: scope.businessId,
      business_slug: await this.dependencies.slugs.slugOf(scope),
      conversation_id: entry.conversation_id,
      sequence,
      type: entry.type,
      data: entry.data,
      created_at: new Date(),
    };
    if (await this.events.insertIfAbsent(event)) return event;
    // A concurrent recorder of the same entry inserted it first: its sequence stands.
    return (await this.events.findById(scope, entry.id)) ?? event;
  }
}

function isLegacy(entry: OutboxEntry | LegacyConversationEvent): entry is LegacyConversationEvent {
  return !('data' in entry) && 'payload' in entry;
}
