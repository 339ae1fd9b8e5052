import type { OutboxEntry } from '../shared/outbox-entry.schema';

/** CONTRACT 10.4 states. */
export const BROADCAST_STATES = ['scheduled', 'preparing', 'running', 'paused', 'completed', 'cancelled', 'failed'] as const;
export type BroadcastState = (typeof BROADCAST_STATES)[number];

/** Why a broadcast is paused: a caller (`manual`) or the send engine's limits. */
export const BROADCAST_PAUSE_REASONS = ['manual', 'messaging_limit', 'spam_rate_limit', 'template_not_approved'] as const;
export type BroadcastPauseReason = (typeof BROADCAST_PAUSE_REASONS)[number];

/**
 * A file audience keeps its format and, for CSV, the header read when the broadcast was created (its
 * columns and the byte offset just after it), so freezing resumes at a byte offset without re-reading it.
 */
export type BroadcastFileAudienceEntity =
  | { kind: 'file'; file_id: string; format: 'csv'; header: { columns: string[]; end_offset: number } }
  | { kind: 'file'; file_id: string; format: 'ndjson' };

export type BroadcastAudienceEntity = { kind: 'filter'; filter: Record<string, unknown> } | { kind: 'contacts'; contact_ids: string[] } | BroadcastFileAudienceEntity;

/** Where freezing the audience stands: a restart resumes here (docs/broadcasts.md). */
export interface BroadcastFreezeCheckpoint {
  /** Filter audiences: the last contact _id frozen (contacts are read in _id order). */
  after_contact_id: string | null;
  /** Contact-list audiences: items done; file audiences: data rows done. */
  rows: number;
  /** File audiences: the byte offset just after the last row done. */
  offset: number;
  /** The seq the next recipient takes. */
  next_seq: number;
}

export interface BroadcastCountsEntity {
  total: number;
  pending: number;
  sent: number;
  delivered: number;
  read: number;
  replied: number;
  failed: number;
  skipped: number;
  unknown: number;
}

export interface BroadcastEntity {
  _id: string;
  business_id: string;
  name: string;
  channel_id: string;
  template: { uuid: string; name: string; language: string; category: string };
  /** The template send's variables; values may hold placeholders, rendered per recipient when frozen. */
  variables: { index: number; value: string }[];
  header: Record<string, unknown> | null;
  button_parameters: { index: number; sub_type: string; value: string }[];
  audience: BroadcastAudienceEntity;
  send_at: Date;
  send_window: { from: string; to: string } | null;
  /** The business time zone the window is read in, as of creation. */
  time_zone: string;
  max_per_second: number | null;
  status: BroadcastState;
  pause_reason: BroadcastPauseReason | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  /** Why a `failed` broadcast failed; null otherwise. */
  error?: { code: string; message: string } | null;
  freeze: BroadcastFreezeCheckpoint;
  /** Since when its freeze steps have failed without one succeeding in between; null while they succeed. */
  freeze_failing_since?: Date | null;
  /** When the coordinator next looks at it (null once final); a claimed step pushes it forward (the lease). */
  due_at: Date | null;
  /** Raised by every (re-)dispatch of send slices; slices of older epochs still work (claims keep sends single). */
  dispatch_epoch: number;
  /** When recipients last changed state by a send: a running broadcast without progress is re-dispatched. */
  progress_at: Date | null;
  /** When counts were computed. */
  counts_at: Date | null;
  /** When a running broadcast's counts are computed next (the coordinator spaces recounts by what they cost). */
  recount_at?: Date | null;
  /** Sends per second over the coordinator's last interval. */
  current_per_second: number;
  counts: BroadcastCountsEntity;
  skipped_by_reason: Record<string, number>;
  failed_by_code: Record<string, number>;
  /** broadcast.started / paused / completed, pushed with their change and pulled once recorded. */
  outbox?: OutboxEntry[];
}

export function emptyBroadcastCounts(): BroadcastCountsEntity {
  return { total: 0, pending: 0, sent: 0, delivered: 0, read: 0, replied: 0, failed: 0, skipped: 0, unknown: 0 };
}
