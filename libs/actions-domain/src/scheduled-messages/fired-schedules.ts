import { type ScheduleHistoryEntry, scheduleContextNoteId } from '@cmsg/conversation-commands';
import type {
  BusinessScope,
  ConversationRepository,
  ExecutingStatus,
  OutboxEntry,
  ScheduleOutcome,
  ScheduledMessageEntity,
  ScheduledMessageRepository,
  TimelineEventRepository,
  DefaultScheduledTemplates,
} from '@cmsg/dal';
import { type OutboxRecorder, SYSTEM_AUTHOR, authorOf, noteTimelineItem, outboxEntry, scheduleEventData } from '@cmsg/events';

/** What the executor reads and writes about a fired schedule. */
export interface FiredSchedules {
  find(scope: BusinessScope, id: string): Promise<ScheduledMessageEntity | null>;
  /** firing -> sending with the delivery path decided; the schedule as it is now, or null when it was not firing. */
  startSending(
    scope: BusinessScope,
    schedule: ScheduledMessageEntity,
    decision: { delivery: string; noteId: string | null; at: Date },
    entries: ScheduleHistoryEntry[],
  ): Promise<ScheduledMessageEntity | null>;
  /** The fallback after WINDOW_CLOSED replaces the decided path. */
  switchDelivery(scope: BusinessScope, id: string, delivery: string, entry: ScheduleHistoryEntry): Promise<void>;
  /** firing | sending -> sent | failed (with the delivery path when recorded only now); false when the schedule was not in `from`. */
  finish(scope: BusinessScope, schedule: ScheduledMessageEntity, from: ExecutingStatus, outcome: ScheduleOutcome, entries: ScheduleHistoryEntry[], delivery?: string): Promise<boolean>;
  /**
   * Writes the AI schedule's reason as its context note (author: the token that created it) under
   * the id derived from the schedule, unless it exists (a run that died before recording it); answers that id.
   */
  addContextNote(scope: BusinessScope, schedule: ScheduledMessageEntity, authorTokenUuid: string, at: Date): Promise<string>;
  /** The default scheduled template of the conversation's channel. */
  defaultScheduledTemplateId(scope: BusinessScope, conversationId: string): Promise<string | null>;
}

/** The collections MongoFiredSchedules reads and writes (libs/dal in the apps). */
export interface FiredScheduleStores {
  schedules: Pick<ScheduledMessageRepository, 'find' | 'startSending' | 'switchDelivery' | 'finish'>;
  timeline: Pick<TimelineEventRepository, 'insertIfAbsent'>;
  conversations: Pick<ConversationRepository, 'findById'>;
  defaultTemplates: Pick<DefaultScheduledTemplates, 'idOf'>;
}

/**
 * The fired schedule in MongoDB. Its transitions carry their outbox entries (docs/events.md): leaving
 * firing records scheduled_message.fired (the timeline's schedule_fired row, at the firing time), the
 * outcome scheduled_message.sent or .failed, and the AI branch's note note.created.
 */
export class MongoFiredSchedules implements FiredSchedules {
  constructor(
    private readonly stores: FiredScheduleStores,
    private readonly events: OutboxRecorder,
  ) {}

  find(scope: BusinessScope, id: string): Promise<ScheduledMessageEntity | null> {
    return this.stores.schedules.find(scope, id);
  }

  async startSending(
    scope: BusinessScope,
    schedule: ScheduledMessageEntity,
    decision: { delivery: string; noteId: string | null; at: Date },
    entries: ScheduleHistoryEntry[],
  ): Promise<ScheduledMessageEntity | null> {
    const fired = firedEntry(schedule, decision.at);
    const started = await this.stores.schedules.startSending(scope, schedule._id, decision, entries, [fired]);
    if (started) await this.events.recordQuietly('scheduled_messages', scope, schedule._id, [fired]);
    return started;
  }

  switchDelivery(scope: BusinessScope, id: string, delivery: string, entry: ScheduleHistoryEntry): Promise<void> {
    return this.stores.schedules.switchDelivery(scope, id, delivery, entry);
  }

  async finish(scope: BusinessScope, schedule: ScheduledMessageEntity, from: ExecutingStatus, outcome: ScheduleOutcome, entries: ScheduleHistoryEntry[], delivery?: string): Promise<boolean> {
    const at = entries[entries.length - 1]?.at ?? new Date();
    const events = [...(from === 'firing' ? [firedEntry(schedule, at)] : []), outcomeEntry(schedule, outcome, at)];
    const finished = await this.stores.schedules.finish(scope, schedule._id, from, { status: outcome.status, error: outcome.error }, entries, events, delivery);
    if (finished) await this.events.recordQuietly('scheduled_messages', scope, schedule._id, events);
    return finished;
  }

  async addContextNote(scope: BusinessScope, schedule: ScheduledMessageEntity, authorTokenUuid: string, at: Date): Promise<string> {
    const id = scheduleContextNoteId(schedule._id);
    const author = authorOf({ type: 'api_token', uuid: authorTokenUuid || null });
    const body = schedule.reason ?? '';
    const event = outboxEntry('note.created', schedule.conversation_id, noteTimelineItem({ id, body, createdAt: at }, author), author, at);
    // The shape of a note added through the conversations service (appendNote), with a fixed id.
    const inserted = await this.stores.timeline.insertIfAbsent(scope, { id, conversationId: schedule.conversation_id, kind: 'note', body, author, createdAt: at, outbox: [event] });
    if (inserted) await this.events.recordQuietly('timeline_events', scope, id, [event]);
    return id;
  }

  async defaultScheduledTemplateId(scope: BusinessScope, conversationId: string): Promise<string | null> {
    const conversation = await this.stores.conversations.findById(scope, conversationId);
    return conversation ? this.stores.defaultTemplates.idOf(scope, conversation.channel_id) : null;
  }
}

/** scheduled_message.fired: dated when the firer claimed it, so the timeline row sits where the schedule fired. */
function firedEntry(schedule: ScheduledMessageEntity, at: Date): OutboxEntry {
  return outboxEntry('scheduled_message.fired', schedule.conversation_id, scheduleEventData(schedule._id), SYSTEM_AUTHOR, schedule.fired_at ?? at);
}

function outcomeEntry(schedule: ScheduledMessageEntity, outcome: ScheduleOutcome, at: Date): OutboxEntry {
  return outcome.status === 'sent'
    ? outboxEntry('scheduled_message.sent', schedule.conversation_id, scheduleEventData(schedule._id), SYSTEM_AUTHOR, at)
    : outboxEntry('scheduled_message.failed', schedule.conversation_id, scheduleEventData(schedule._id, outcome.error), SYSTEM_AUTHOR, at);
}
