import { createHash } from 'node:crypto';

/*
 * The states of a stored scheduled message, shared by the scheduler (create, cancel, fire) and
 * the actions-runner (execute), which move the same documents by updates conditional on the state
 * they leave:
 *
 *   pending --claimed by a firer--> firing --delivery path decided--> sending --> sent | failed
 *   pending --replaced / DELETE / customer reply / owner change--> cancelled
 *
 * `firing` and `sending` are internal: the public record shows them as `pending` with `fired_at`
 * set (CONTRACT 3 lists pending, cancelled, sent, failed).
 */
export const SCHEDULED_MESSAGE_STATUSES = ['pending', 'firing', 'sending', 'sent', 'failed', 'cancelled'] as const;
export type ScheduledMessageStatus = (typeof SCHEDULED_MESSAGE_STATUSES)[number];

export const PUBLIC_SCHEDULED_MESSAGE_STATUSES = ['pending', 'cancelled', 'sent', 'failed'] as const;
export type PublicScheduledMessageStatus = (typeof PUBLIC_SCHEDULED_MESSAGE_STATUSES)[number];

export function publicScheduledMessageStatus(status: string): PublicScheduledMessageStatus {
  if (status === 'firing' || status === 'sending') return 'pending';
  if ((PUBLIC_SCHEDULED_MESSAGE_STATUSES as readonly string[]).includes(status)) return status as PublicScheduledMessageStatus;
  throw new Error(`Unknown scheduled message status ${JSON.stringify(status)}`);
}

export const SCHEDULE_HISTORY_EVENTS = ['created', 'cancelled', 'reassigned', 'fired', 'note_added', 'sending', 'sent', 'failed'] as const;
export type ScheduleHistoryEvent = (typeof SCHEDULE_HISTORY_EVENTS)[number];

export interface ScheduleActor {
  type: 'api_token' | 'system';
  uuid: string | null;
}

/** A schedule keeps its last transitions this many (an owner change can reassign it any number of times). */
export const SCHEDULE_HISTORY_LIMIT = 50;

/** One transition, appended to the schedule's history in the same update as the transition. */
export interface ScheduleHistoryEntry {
  at: Date;
  event: ScheduleHistoryEvent;
  status: ScheduledMessageStatus;
  reason: string | null;
  actor: ScheduleActor;
  detail: Record<string, unknown> | null;
}

export const SYSTEM_ACTOR: ScheduleActor = { type: 'system', uuid: null };

export function scheduleHistoryEntry(
  event: ScheduleHistoryEvent,
  status: ScheduledMessageStatus,
  at: Date,
  options: { reason?: string; actor?: ScheduleActor; detail?: Record<string, unknown> } = {},
): ScheduleHistoryEntry {
  return { at, event, status, reason: options.reason ?? null, actor: options.actor ?? SYSTEM_ACTOR, detail: options.detail ?? null };
}

/** How a fired schedule delivers, decided once and recorded before anything is sent. */
export const SCHEDULE_DELIVERY_PATHS = ['ai_run', 'ai_fallback_template', 'literal', 'template'] as const;
export type ScheduleDeliveryPath = (typeof SCHEDULE_DELIVERY_PATHS)[number];

/**
 * The operation id of a schedule's send or AI run: derived from the schedule uuid and the path, so
 * a repeated execution never sends or charges twice (the conversations service dedupes by it).
 */
export function scheduledOperationId(scheduleUuid: string, path: ScheduleDeliveryPath): string {
  return `schedule:${scheduleUuid}:${path}`;
}

/**
 * The id of the context note an AI schedule's reason becomes (a UUID in the version 5 layout, from
 * the schedule uuid): the note is inserted under it only if absent, so a re-run after a crash
 * between writing the note and recording it finds the note instead of writing a second one.
 */
export function scheduleContextNoteId(scheduleUuid: string): string {
  const hash = createHash('sha1').update(`cmsg.scheduled-message.context-note\u0000${scheduleUuid}`).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
