import { type BusinessScope, type ConversationEntity, type ConversationIdentity, type ConversationStateCopy, type EventEntity, type NewTimelineEvent, storedConversationDefaults } from '@cmsg/dal';
import type { EventRecorderStores } from '../event-recorder';

const EPOCH = new Date('2026-11-01T00:00:00.000Z');

/** A timeline row as inserted, with its business. */
export type InMemoryTimelineRow = NewTimelineEvent & { businessId: string };

/**
 * The collections EventRecorder reads and writes, in memory: events and timeline rows inserted
 * unless one with their id exists (their unique _id), conversations that hand out their next event
 * sequence, and each contact's copy of its conversation's state.
 */
export class InMemoryRecorderStores implements EventRecorderStores {
  readonly eventRows: EventEntity[] = [];
  readonly timelineRows: InMemoryTimelineRow[] = [];
  readonly conversationRows: ConversationEntity[] = [];
  /** By contact id. */
  readonly contactStates = new Map<string, ConversationStateCopy>();

  /** Stores a conversation with the schema's defaults (event_sequence 0) and what a spec sets. */
  addConversation(fields: ConversationIdentity & Partial<ConversationEntity>): ConversationEntity {
    const conversation = { ...storedConversationDefaults(fields, EPOCH), ...fields };
    this.conversationRows.push(conversation);
    return conversation;
  }

  readonly events: EventRecorderStores['events'] = {
    insertIfAbsent: async (event) => this.insertEvent(event),
    insertManyIfAbsent: async (events) => new Set(events.filter((event) => this.insertEvent(event)).map((event) => event._id)),
    findById: async (scope, id) => this.eventRows.find((row) => row.business_id === scope.businessId && row._id === id) ?? null,
    findByIds: async (scope, ids) => this.eventRows.filter((row) => row.business_id === scope.businessId && ids.includes(row._id)),
  };

  readonly timeline: EventRecorderStores['timeline'] = {
    insertIfAbsent: async (scope, row) => this.insertRow(scope, row),
    insertManyIfAbsent: async (scope, rows) => {
      for (const row of rows) this.insertRow(scope, row);
    },
  };

  readonly conversations: EventRecorderStores['conversations'] = {
    findById: async (scope, id) => this.conversationOf(scope, id),
    findByIds: async (scope, ids) => this.conversationRows.filter((row) => row.business_id === scope.businessId && ids.includes(row._id)),
    nextEventSequence: async (scope, id) => {
      const conversation = this.conversationOf(scope, id);
      if (!conversation) return null;
      conversation.event_sequence += 1;
      return conversation.event_sequence;
    },
  };

  readonly contacts: EventRecorderStores['contacts'] = {
    copyConversationState: async (_scope, contactId, state) => this.copyState(contactId, state),
    copyConversationStates: async (_scope, states) => {
      for (const [contactId, state] of states) this.copyState(contactId, state);
    },
  };

  /** As ContactRepository: never over a copy of a later state. */
  private copyState(contactId: string, state: ConversationStateCopy): void {
    if ((this.contactStates.get(contactId)?.sequence ?? -1) <= state.sequence) this.contactStates.set(contactId, state);
  }

  private insertEvent(event: EventEntity): boolean {
    if (this.eventRows.some((row) => row._id === event._id)) return false;
    this.eventRows.push(event);
    return true;
  }

  private insertRow(scope: BusinessScope, row: NewTimelineEvent): boolean {
    if (this.timelineRows.some((stored) => stored.id === row.id)) return false;
    this.timelineRows.push({ ...row, businessId: scope.businessId });
    return true;
  }

  private conversationOf(scope: BusinessScope, id: string): ConversationEntity | null {
    return this.conversationRows.find((row) => row.business_id === scope.businessId && row._id === id) ?? null;
  }
}
