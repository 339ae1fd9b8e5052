import { type ScheduleDeliveryPath, type ScheduleHistoryEntry, scheduleContextNoteId } from '@cmsg/conversation-commands';
import {
  type BusinessScope,
  type ScheduleClaim,
  ChannelRepository,
  ConversationRepository,
  ScheduledMessageModel,
  TemplateRepository,
  TimelineEventRepository,
  claimOnce,
  claimsOfSchedule,
  readClaim,
  releaseScheduleSlot,
  scheduleClaimId,
  scopedFilter,
} from '@cmsg/dal';

const channels = new ChannelRepository();
const conversations = new ConversationRepository();
const templates = new TemplateRepository();
const timelineEvents = new TimelineEventRepository();

/** The stored schedule fields the executor reads (collection scheduled_messages). */
export interface FiredSchedule {
  _id: string;
  business_id: string;
  conversation_id: string;
  status: string;
  executor_kind: string;
  ai_employee_id: string | null;
  reason: string | null;
  template_id: string | null;
  message_kind: string | null;
  payload: Record<string, unknown> | null;
  template_variables: { index: number; value: string }[];
  template_header: Record<string, unknown> | null;
  template_button_parameters: { index: number; sub_type: string; value: string }[];
  created_by_token_id: string | null;
  author: { type: string; uuid: string | null } | null;
  delivery: string | null;
  note_id: string | null;
}

export type ScheduleOutcome = { status: 'sent' | 'failed'; error: { code: string; message: string } | null };

export interface ScheduleDecisions {
  fate: 'fire' | 'cancel';
  outcome: ScheduleOutcome | null;
  deliveryPath: ScheduleDeliveryPath | null;
}

/**
 * What the executor reads and decides about a fired schedule. Decisions are claims (an insert with
 * one winner, also on FerretDB whose updates are not isolated); the record mirrors them.
 */
export interface FiredScheduleStore {
  find(scope: BusinessScope, id: string): Promise<FiredSchedule | null>;
  /**
   * What was decided about the schedule, in one read of its claims: its fate (`fire` is claimed when
   * nothing decided it yet: the command may outrun the scheduler's record), and what earlier runs
   * decided: the outcome, and the delivery path (a fallback decided later wins).
   */
  decisions(scope: BusinessScope, id: string, now: Date): Promise<ScheduleDecisions>;
  /** Decides the path of a stage (1: first decision, 2: the fallback after WINDOW_CLOSED) once; answers the path that won. */
  decideDelivery(scope: BusinessScope, id: string, stage: 1 | 2, path: ScheduleDeliveryPath, entry: ScheduleHistoryEntry): Promise<ScheduleDeliveryPath>;
  /**
   * Writes the AI schedule's reason as its context note (author: the token that created it) under
   * the id derived from the schedule, only if absent; answers that id, also when it existed.
   */
  addContextNote(scope: BusinessScope, schedule: FiredSchedule, authorTokenUuid: string, at: Date): Promise<string>;
  recordNote(scope: BusinessScope, id: string, noteId: string, entry: ScheduleHistoryEntry): Promise<void>;
  /** Claims the outcome and mirrors it on the record; false when an outcome was claimed before. */
  finish(scope: BusinessScope, id: string, outcome: ScheduleOutcome, entry: ScheduleHistoryEntry): Promise<boolean>;
  /** Ends the schedule's hold on its conversation (conversation.pending_schedule_id) if it still has it. */
  releaseConversation(scope: BusinessScope, conversationId: string, scheduleId: string, now: Date): Promise<void>;
  /** The channel's default scheduled template (by name) on the conversation's channel. */
  defaultScheduledTemplateId(scope: BusinessScope, conversationId: string): Promise<string | null>;
}

export class MongoFiredScheduleStore implements FiredScheduleStore {
  find(scope: BusinessScope, id: string): Promise<FiredSchedule | null> {
    return ScheduledMessageModel.findOne(scopedFilter(scope, { _id: id })).lean<FiredSchedule>();
  }

  async decisions(scope: BusinessScope, id: string, now: Date): Promise<ScheduleDecisions> {
    const claims = await claimsOfSchedule(scope, id);
    const outcome = claims.find((claim) => claim.kind === 'outcome');
    const delivery = claims.find((claim) => claim._id === scheduleClaimId('delivery', id, 2)) ?? claims.find((claim) => claim._id === scheduleClaimId('delivery', id, 1));
    return {
      fate: await this.fate(scope, id, claims.find((claim) => claim.kind === 'fate'), now),
      outcome: outcome ? (outcome.data as ScheduleOutcome) : null,
      deliveryPath: (delivery?.data?.['path'] as ScheduleDeliveryPath | undefined) ?? null,
    };
  }

  /** The claimed fate; `fire` is claimed when none was read (a concurrent claim may still win, then it decides). */
  private async fate(scope: BusinessScope, id: string, read: ScheduleClaim | undefined, now: Date): Promise<'fire' | 'cancel'> {
    const claimed = read ?? ((await claimOnce(scope, 'fate', id, { decision: 'fire', by: 'executor' }, now)) ? undefined : await readClaim(scope, 'fate', id));
    return claimed?.data?.['decision'] === 'cancel' ? 'cancel' : 'fire';
  }

  async decideDelivery(scope: BusinessScope, id: string, stage: 1 | 2, path: ScheduleDeliveryPath, entry: ScheduleHistoryEntry): Promise<ScheduleDeliveryPath> {
    if (await claimOnce(scope, 'delivery', id, { path }, entry.at, stage)) {
      await ScheduledMessageModel.updateOne(scopedFilter(scope, { _id: id }), { $set: { delivery: path, updated_at: entry.at }, $push: { history: entry } });
      return path;
    }
    const decided = await readClaim(scope, 'delivery', id, stage);
    return (decided?.data?.['path'] as ScheduleDeliveryPath | undefined) ?? path;
  }

  async addContextNote(scope: BusinessScope, schedule: FiredSchedule, authorTokenUuid: string, at: Date): Promise<string> {
    const id = scheduleContextNoteId(schedule._id);
    // The shape of a note added through the conversations service (appendNote), with a fixed id:
    // an earlier run that died before recording it wrote it already.
    await timelineEvents.insertIfAbsent(scope, {
      id,
      conversationId: schedule.conversation_id,
      kind: 'note',
      body: schedule.reason,
      author: { type: 'api_token', uuid: authorTokenUuid },
      createdAt: at,
    });
    return id;
  }

  async recordNote(scope: BusinessScope, id: string, noteId: string, entry: ScheduleHistoryEntry): Promise<void> {
    await ScheduledMessageModel.updateOne(scopedFilter(scope, { _id: id, note_id: null }), { $set: { note_id: noteId, updated_at: entry.at }, $push: { history: entry } });
  }

  async finish(scope: BusinessScope, id: string, outcome: ScheduleOutcome, entry: ScheduleHistoryEntry): Promise<boolean> {
    if (!(await claimOnce(scope, 'outcome', id, { ...outcome, by: 'executor' }, entry.at))) return false;
    await ScheduledMessageModel.updateOne(
      scopedFilter(scope, { _id: id }),
      { $set: { status: outcome.status, error: outcome.error, fire_lease_until: null, updated_at: entry.at }, $push: { history: entry } },
    );
    return true;
  }

  releaseConversation(scope: BusinessScope, conversationId: string, scheduleId: string, now: Date): Promise<void> {
    return releaseScheduleSlot(scope, conversationId, scheduleId, now);
  }
  async defaultScheduledTemplateId(scope: BusinessScope, conversationId: string): Promise<string | null> {
    const conversation = await conversations.findById(scope, conversationId);
    if (!conversation) return null;
    const channel = await channels.findById(scope, conversation.channel_id);
    const name = channel?.default_scheduled_template;
    if (!name) return null;
    const template = await templates.findOnChannelByName(scope, conversation.channel_id, name);
    return template?._id ?? null;
  }
}
