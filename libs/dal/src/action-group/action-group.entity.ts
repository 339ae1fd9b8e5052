/** Action status while a group runs; `running` shows as `pending` publicly (CONTRACT 4). */
export const ACTION_STATUSES = ['pending', 'running', 'succeeded', 'noop', 'failed', 'skipped'] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];
/** An action with one of these has its result recorded; it never changes again. */
export const FINAL_ACTION_STATUSES = ['succeeded', 'noop', 'failed', 'skipped'] as const satisfies readonly ActionStatus[];
export type FinalActionStatus = (typeof FINAL_ACTION_STATUSES)[number];

export const GROUP_STATUSES = ['processing', 'succeeded', 'failed'] as const;
export type GroupStatus = (typeof GROUP_STATUSES)[number];

export function isFinalActionStatus(status: ActionStatus): status is FinalActionStatus {
  return (FINAL_ACTION_STATUSES as readonly ActionStatus[]).includes(status);
}

export interface ActionErrorRecord {
  code: string;
  message: string;
}

export interface ActionRecord {
  index: number;
  type: string;
  /** The validated public action object, as submitted. */
  params: Record<string, unknown>;
  status: ActionStatus;
  error: ActionErrorRecord | null;
  started_at: Date | null;
  finished_at: Date | null;
  /** action.failed / action_group.finished / action_group.escalated entries not yet recorded (docs/events.md). */
  outbox?: OutboxEntry[];
}

import type { OutboxEntry } from '../shared/outbox-entry.schema';

/** One accepted action group (collection action_groups); _id is the group uuid. */
export interface ActionGroupEntity {
  _id: string;
  business_id: string;
  conversation_id: string;
  token_uuid: string;
  request_id: string | null;
  source: string;
  depth: number;
  stop_on_error: boolean;
  escalate_on_error: boolean;
  status: GroupStatus;
  /** Set once the conversation was escalated for this group (at most one escalation per group). */
  escalated: boolean;
  actions: ActionRecord[];
  created_at: Date;
  /** First execution start: the 800 s budget counts from here, across re-runs. */
  started_at: Date | null;
  finished_at: Date | null;
  /** action.failed / action_group.finished / action_group.escalated entries not yet recorded (docs/events.md). */
  outbox?: OutboxEntry[];
}
