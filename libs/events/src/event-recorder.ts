import type {
  BusinessScope,
  ContactRepository,
  ConversationEntity,
  ConversationRepository,
  ConversationStateCopy,
  EventEntity,
  EventRepository,
  NewTimelineEvent,
  OutboxEntry,
  TimelineEventRepository,
} from '@cmsg/dal';
import { TurnBatches, mapWithConcurrency } from '@cmsg/platform';
import type { BusinessSlugs } from './business-slugs';
import { type ConversationEventBus, conversationEventMessageOf } from './conversation-event-bus';
import type { SequencedEntry } from './outbox-entries';
import { type TimelineEventType, entryKindOf } from './entry-types';
import type { EventFanOut } from '@cmsg/webhooks';

/** The collections a recording reads and writes (libs/dal repositories in the apps). */
export interface EventRecorderStores {
  events: Pick<EventRepository, 'insertIfAbsent' | 'insertManyIfAbsent' | 'findById' | 'findByIds'>;
  conversations: Pick<ConversationRepository, 'findById' | 'findByIds' | 'nextEventSequence'>;
  timeline: Pick<TimelineEventRepository, 'insertIfAbsent' | 'insertManyIfAbsent'>;
  contacts: Pick<ContactRepository, 'copyConversationState' | 'copyConversationStates'>;
}

export interface EventRecorderDependencies {
  stores: EventRecorderStores;
  /** The webhook endpoints' fan-out (libs/webhooks, WebhookFanOut): idempotent by event id. */
  fanOut: Pick<EventFanOut, 'fanOut' | 'fanOutMany'>;
  bus: ConversationEventBus;
  slugs: BusinessSlugs;
}

/** Sequence updates of a recordMany in flight at once: a batch of hundreds of conversations does not send them all together. */
const SEQUENCE_UPDATES_IN_FLIGHT = 16;

/** The changes of a conversation that contact search filters on (tag, inbox_status, last_inbound_at). */
const CHANGES_SEARCH_READS = new Set(['conversation.created', 'conversation.tags_changed', 'conversation.inbox_status_changed', 'message.received']);

/** An entry written before events existed (`{ id, type, payload, created_at }`): published as it was, then dropped. */
interface LegacyConversationEvent {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  created_at: Date;
}

/**
 * Records one outbox entry, idempotently by its id (docs/events.md): the event (unless stored
 * already) with the sequence its change took or else the conversation's next one, the timeline
 * row (insert-if-absent by the same id), the fan-out to webhook endpoints, the conversation-events
 * topic where a consumer reads the type. The topic message and the sequence are written while the
 * row is; the event follows the row. The entry stays in its document's outbox: EventOutbox takes
 * out what it recorded. Every step may run again (a writer and the
 * relay racing, a crash halfway) and yields one event and one row; a repeat spends a sequence
 * number that no event keeps (a gap).
 */
export class EventRecorder {
  private readonly stores: EventRecorderStores;
  /** The event inserts of one turn of the event loop, in one insert (every business: events is one collection). */
  private readonly eventInserts: TurnBatches<EventEntity, boolean>;

  constructor(private readonly dependencies: EventRecorderDependencies) {
    this.stores = dependencies.stores;
    this.eventInserts = new TurnBatches<EventEntity, boolean>(async (events) => {
      if (events.length === 1) return [await this.stores.events.insertIfAbsent(events[0]!)];
      const inserted = await this.stores.events.insertManyIfAbsent(events);
      // The same entry twice in one turn (a writer and the relay): only its first is the inserted one.
      const firstIndexOf = new Map<string, number>();
      events.forEach((event, index) => firstIndexOf.set(event._id, firstIndexOf.get(event._id) ?? index));
      return events.map((event, index) => inserted.has(event._id) && firstIndexOf.get(event._id) === index);
    });
  }

  /** A SequencedEntry keeps the sequence its change took; any other entry takes the conversation's next one. */
  async record(scope: BusinessScope, documentId: string, entry: OutboxEntry | SequencedEntry): Promise<void> {
    if (isLegacy(entry)) {
      await this.dependencies.bus.publish(documentId, { id: entry.id, type: entry.type, created_at: entry.created_at.toISOString(), data: entry.payload });
    } else {
      await this.recordEntry(scope, entry);
    }
  }

  private async recordEntry(scope: BusinessScope, entry: OutboxEntry): Promise<void> {
    const kind = entryKindOf(entry.type);
    if (!kind) throw new Error(`outbox entry ${entry.id} has an unknown type ${JSON.stringify(entry.type)}`);
    const conversationId = entry.conversation_id;
    const row = kind.timeline && conversationId ? this.insertRow(scope, entry, conversationId, kind.timeline) : Promise.resolve();
    const message = conversationId ? conversationEventMessageOf(entry, scope.businessId) : null;
    const published = message && conversationId ? this.dependencies.bus.publish(conversationId, message) : Promise.resolve();
    // The row is stored before the event, so a webhook receiver that reads the timeline finds it.
    const delivered = kind.publicEvent
      ? Promise.all([this.nextSequence(scope, entry), row]).then(([sequence]) => this.storedEvent(scope, entry, sequence)).then((event) => this.dependencies.fanOut.fanOut(event))
      : row;
    const mirrored = conversationId && CHANGES_SEARCH_READS.has(entry.type) ? this.copyToContact(scope, conversationId, entry) : Promise.resolve();
    await Promise.all([delivered, published, mirrored]);
  }

  /**
   * Records many entries of one business at once, each as `record` does, in a handful of writes
   * (an audience file's new contacts): the timeline rows in one insert, then the events in one
   * insert with the sequences their changes took (or each conversation's next ones, in entry order
   * per conversation), one fan-out, and the contacts' copies of their conversations in one bulk
   * write. Idempotent by entry id like `record`.
   */
  async recordMany(scope: BusinessScope, entries: readonly (OutboxEntry | SequencedEntry)[]): Promise<void> {
    const kinds = entries.map((entry) => {
      const kind = entryKindOf(entry.type);
      if (!kind) throw new Error(`outbox entry ${entry.id} has an unknown type ${JSON.stringify(entry.type)}`);
      return kind;
    });
    await this.stores.timeline.insertManyIfAbsent(
      scope,
      entries.flatMap((entry, index) => {
        const eventType = kinds[index]!.timeline;
        return eventType && entry.conversation_id ? [timelineRowOf(entry, entry.conversation_id, eventType)] : [];
      }),
    );
    const published = entries.map((entry) => {
      const message = entry.conversation_id ? conversationEventMessageOf(entry, scope.businessId) : null;
      return message && entry.conversation_id ? this.dependencies.bus.publish(entry.conversation_id, message) : Promise.resolve();
    });
    const publicEntries = entries.filter((_entry, index) => kinds[index]!.publicEvent);
    const delivered = publicEntries.length === 0 ? Promise.resolve() : this.storedEvents(scope, publicEntries).then((events) => this.dependencies.fanOut.fanOutMany(events));
    const mirrored = this.copyManyToContacts(scope, entries.filter((entry) => entry.conversation_id && CHANGES_SEARCH_READS.has(entry.type)));
    await Promise.all([delivered, mirrored, ...published]);
  }

  /** The events of the entries: inserted now, or as stored by an earlier recording of the same entry. */
  private async storedEvents(scope: BusinessScope, entries: readonly (OutboxEntry | SequencedEntry)[]): Promise<EventEntity[]> {
    const sequences = await this.sequencesInEntryOrder(scope, entries);
    const slug = await this.dependencies.slugs.slugOf(scope);
    const createdAt = new Date();
    const events = entries.map((entry, index) => eventOf(scope, slug, entry, sequences[index]!, createdAt));
    const inserted = await this.stores.events.insertManyIfAbsent(events);
    const earlier = new Map((await this.stores.events.findByIds(scope, events.filter((event) => !inserted.has(event._id)).map((event) => event._id))).map((event) => [event._id, event]));
    return events.map((event) => earlier.get(event._id) ?? event);
  }

  /** Each entry's sequence: the one its change took, else its conversation's next, one conversation's entries in order. */
  private async sequencesInEntryOrder(scope: BusinessScope, entries: readonly (OutboxEntry | SequencedEntry)[]): Promise<number[]> {
    const sequences = new Array<number>(entries.length);
    const byConversation = new Map<string, number[]>();
    entries.forEach((entry, index) => {
      const key = entry.conversation_id ?? `entry:${entry.id}`;
      byConversation.set(key, [...(byConversation.get(key) ?? []), index]);
    });
    await mapWithConcurrency([...byConversation.values()], SEQUENCE_UPDATES_IN_FLIGHT, async (indexes) => {
      for (const index of indexes) sequences[index] = await this.nextSequence(scope, entries[index]!);
    });
    return sequences;
  }

  private async copyManyToContacts(scope: BusinessScope, entries: readonly (OutboxEntry | SequencedEntry)[]): Promise<void> {
    const written = new Map(entries.flatMap((entry) => ('conversation' in entry && entry.conversation ? [[entry.conversation._id, entry.conversation] as const] : [])));
    const unread = [...new Set(entries.map((entry) => entry.conversation_id!))].filter((id) => !written.has(id));
    const conversations = [...written.values(), ...(unread.length > 0 ? await this.stores.conversations.findByIds(scope, unread) : [])];
    if (conversations.length === 0) return;
    await this.stores.contacts.copyConversationStates(scope, new Map(conversations.map((conversation) => [conversation.contact_id, conversationStateOf(conversation)])));
  }

  /**
   * The contact's copy of what contact search reads from its conversation (docs/contacts.md): from
   * the conversation as the entry's own change answered it, or as it is now (the relay).
   */
  private async copyToContact(scope: BusinessScope, conversationId: string, entry: OutboxEntry | SequencedEntry): Promise<void> {
    const conversation = ('conversation' in entry ? entry.conversation : undefined) ?? (await this.stores.conversations.findById(scope, conversationId));
    if (!conversation) return;
    await this.stores.contacts.copyConversationState(scope, conversation.contact_id, conversationStateOf(conversation));
  }

  private async insertRow(scope: BusinessScope, entry: OutboxEntry, conversationId: string, eventType: TimelineEventType): Promise<void> {
    await this.stores.timeline.insertIfAbsent(scope, timelineRowOf(entry, conversationId, eventType));
  }

  /** The sequence the entry's change took, or the conversation's next one. */
  private async nextSequence(scope: BusinessScope, entry: OutboxEntry | SequencedEntry): Promise<number> {
    if ('sequence' in entry && typeof entry.sequence === 'number') return entry.sequence;
    return entry.conversation_id ? ((await this.stores.conversations.nextEventSequence(scope, entry.conversation_id)) ?? 0) : 0;
  }

  /**
   * The event of the entry: inserted now with the sequence taken for it or, when a recorder of the
   * same entry stored it first (a retry, the relay racing the writer), the stored one, whose
   * sequence stands. The insert comes first because the entry is almost always new; a repeat
   * leaves its sequence number unused (a gap). The inserts of one turn are one insert (TurnBatches).
   */
  private async storedEvent(scope: BusinessScope, entry: OutboxEntry, sequence: number): Promise<EventEntity> {
    const event = eventOf(scope, await this.dependencies.slugs.slugOf(scope), entry, sequence, new Date());
    if (await this.eventInserts.add('', event)) return event;
    return (await this.stores.events.findById(scope, entry.id)) ?? event;
  }
}

function eventOf(scope: BusinessScope, slug: string, entry: OutboxEntry, sequence: number, createdAt: Date): EventEntity {
  return { _id: entry.id, business_id: scope.businessId, business_slug: slug, conversation_id: entry.conversation_id, sequence, type: entry.type, data: entry.data, created_at: createdAt };
}

/** What contact search reads from a conversation, as its contact's copy holds it. */
function conversationStateOf(conversation: ConversationEntity): ConversationStateCopy {
  return { tag_ids: conversation.tag_ids ?? [], inbox_status: conversation.inbox_status, last_inbound_at: conversation.last_inbound_at ?? null, sequence: conversation.event_sequence ?? 0 };
}

function timelineRowOf(entry: OutboxEntry, conversationId: string, eventType: TimelineEventType): NewTimelineEvent {
  return { id: entry.id, conversationId, kind: 'event', eventType, data: entry.data, author: entry.author, createdAt: entry.created_at };
}

function isLegacy(entry: OutboxEntry | LegacyConversationEvent): entry is LegacyConversationEvent {
  return !('data' in entry) && 'payload' in entry;
}
