import type { ScheduleHistoryEntry, ScheduledMessageStatus } from '@cmsg/conversation-commands';
import type { OutboxEntry } from '../shared/outbox-entry.schema';

export interface ScheduleAuthor {
  type: string;
  uuid: string | null;
}

/** A stored scheduled message (collection scheduled_messages; states in scheduled-message.schema.ts). */
export interface ScheduledMessageEntity {
  _id: string;
  business_id: string;
  conversation_id: string;
  status: ScheduledMessageStatus;
  pending_conversation_key?: string;
  pending_id?: string;
  executor_kind: 'ai_employee' | 'human_user';
  ai_employee_id: string | null;
  reason: string | null;
  template_id: string | null;
  message_kind: string | null;
  payload: Record<string, unknown> | null;
  template_variables: { index: number; value: string }[];
  template_header: Record<string, unknown> | null;
  template_button_parameters: { index: number; sub_type: string; value: string }[];
  schedule_at: Date;
  schedule_local: { date: string; time: string; time_zone: string } | null;
  cancel_on_customer_reply: boolean;
  is_tester: boolean;
  created_by_token_id: string | null;
  author: ScheduleAuthor;
  error: { code: string; message: string } | null;
  history: ScheduleHistoryEntry[];
  fired_at: Date | null;
  fire_claim: string | null;
  fire_lease_until?: Date;
  /** When the firer's command for it was acknowledged by Kafka (set with the lease's removal). */
  produced_at?: Date;
  delivery: string | null;
  note_id: string | null;
  /** Entries not yet recorded as events (docs/events.md); absent once there never was one. */
  outbox?: OutboxEntry[];
  created_at: Date;
  updated_at: Date;
}

/**
 * A schedule as the firer's due-schedule query answers it: what decides whether it is due (tester
 * ones on their business's virtual clock) and what its command is built from.
 */
export type DueSchedule = Pick<
  ScheduledMessageEntity,
  '_id' | 'business_id' | 'conversation_id' | 'status' | 'is_tester' | 'executor_kind' | 'created_by_token_id' | 'schedule_at'
>;
