import { type ScheduleHistoryEntry, scheduleContextNoteId } from '@cmsg/conversation-commands';
import {
  type BusinessScope,
  ConversationRepository,
  type ExecutingStatus,
  type ScheduleOutcome,
  type ScheduledMessageEntity,
  ScheduledMessageRepository,
  TimelineEventRepository,
  defaultScheduledTemplateId,
} from '@cmsg/dal';

/** What the executor reads and writes about a fired schedule. */
export interface FiredSchedules {
  find(scope: BusinessScope, id: string): Promise<ScheduledMessageEntity | null>;
  /** firing -> sending with the delivery path decided; the schedule as it is now, or null when it was not firing. */
  startSending(scope: BusinessScope, id: string, decision: { delivery: string; noteId: string | null; at: Date }, entries: ScheduleHistoryEntry[]): Promise<ScheduledMessageEntity | null>;
  /** The fallback after WINDOW_CLOSED replaces the decided path. */
  switchDelivery(scope: BusinessScope, id: string, delivery: string, entry: ScheduleHistoryEntry): Promise<void>;
  /** firing | sending -> sent | failed (with the delivery path when recorded only now); false when the schedule was not in `from`. */
  finish(scope: BusinessScope, id: string, from: ExecutingStatus, outcome: ScheduleOutcome, entries: ScheduleHistoryEntry[], delivery?: string): Promise<boolean>;
  /**
   * Writes the AI schedule's reason as its context note (author: the token that created it) under
   * the id derived from the schedule, unless it exists (a run that died before recording it); answers that id.
   */
  addContextNote(scope: BusinessScope, schedule: ScheduledMessageEntity, authorTokenUuid: string, at: Date): Promise<string>;
  /** The default scheduled template of the conversation's channel. */
  defaultScheduledTemplateId(scope: BusinessScope, conversationId: string): Promise<string | null>;
}

export class MongoFiredSchedules implements FiredSchedules {
  private readonly schedules = new ScheduledMessageRepository();
  private readonly timeline = new TimelineEventRepository();
  private readonly conversations = new ConversationRepository();

  find(scope: BusinessScope, id: string): Promise<ScheduledMessageEntity | null> {
    return this.schedules.find(scope, id);
  }

  startSending(scope: BusinessScope, id: string, decision: { delivery: string; noteId: string | null; at: Date }, entries: ScheduleHistoryEntry[]): Promise<ScheduledMessageEntity | null> {
    return this.schedules.startSending(scope, id, decision, entries);
  }

  switchDelivery(scope: BusinessScope, id: string, delivery: string, entry: ScheduleHistoryEntry): Promise<void> {
    return this.schedules.switchDelivery(scope, id, delivery, entry);
  }

  finish(scope: BusinessScope, id: string, from: ExecutingStatus, outcome: ScheduleOutcome, entries: ScheduleHistoryEntry[], delivery?: string): Promise<boolean> {
    return this.schedules.finish(scope, id, from, outcome, entries, delivery);
  }

  async addContextNote(scope: BusinessScope, schedule: ScheduledMessageEntity, authorTokenUuid: string, at: Date): Promise<string> {
    const id = scheduleContextNoteId(schedule._id);
    // The shape of a note added through the conversations service (appendNote), with a fixed id.
    await this.timeline.insertIfAbsent(scope, { id, conversationId: schedule.conversation_id, kind: 'note', body: schedule.reason ?? '', author: { type: 'api_token', uuid: authorTokenUuid }, createdAt: at });
    return id;
  }

  async defaultScheduledTemplateId(scope: BusinessScope, conversationId: string): Promise<string | null> {
    const conversation = await this.conversations.findById(scope, conversationId);
    return conversation ? defaultScheduledTemplateId(scope, conversation.channel_id) : null;
  }
}
